#!/usr/bin/env bash
# test.sh - set up, build and run every test (the README's test command).
#
#   scripts/test.sh
#
# CPU tests run everywhere; GPU tests are reported as skipped without a GPU.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
ctest --test-dir build --output-on-failure -j "$(nproc)"
