#!/usr/bin/env bash
# run.sh - set up, build and run the main job (the README's main command).
#
#   scripts/run.sh
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
exec build/cured tour
