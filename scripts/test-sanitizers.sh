#!/usr/bin/env bash
# test-sanitizers.sh - builds the whole suite with AddressSanitizer and
# UndefinedBehaviorSanitizer in build-asan/ and runs it; any report fails.
#
#   scripts/test-sanitizers.sh      (CI: .ci/run, after scripts/test.sh)
#
# C and C++ code and the host side of the .cu files are built with
# -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all
# (the kernels' device code is not instrumented), so the first report ends
# the process. Every report goes to a file under build-asan/sanitizer-logs/
# (log_path), and the script fails when one is there, not only when ctest
# fails: a test that expects a failing exit (WILL_FAIL, expect.cmake's RC=1)
# or matches output only (PASS_REGULAR_EXPRESSION) would otherwise pass over
# a report. The runtimes are linked statically because with gcc's shared
# libubsan beside libasan, UBSan ignores log_path and writes to stderr.
# Leaks count (LeakSanitizer).
#
# Left out: the libFuzzer target fuzz_ptx (label fuzz), already built with
# ASan and UBSan and run in build/; and the tests labelled no-sanitizer, which
# cannot run in a sanitizer build and run in build/: the installed-tree test
# (a program linking the installed libraries would need the sanitizer
# runtimes) and the cases under an address-space limit (ASan's shadow needs
# terabytes of address space). GPU tests skip without a GPU, as in
# build/; a CUDA runtime without a driver needs no ASan option. With a GPU,
# the driver maps memory inside ASan's shadow gap, so protect_shadow_gap=0 is
# set there (not tried on a GPU machine).
set -euo pipefail
cd "$(dirname "$0")/.."

dir=build-asan
san="-fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=all"
scripts/setup.sh "$dir" \
  "-DCMAKE_C_FLAGS=$san" "-DCMAKE_CXX_FLAGS=$san" \
  "-DCMAKE_CUDA_FLAGS=-Xcompiler=-fsanitize=address,-fsanitize=undefined,-fno-omit-frame-pointer,-fno-sanitize-recover=all" \
  "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined -static-libasan -static-libubsan"

logs=$PWD/$dir/sanitizer-logs
rm -rf "$logs"
mkdir -p "$logs"
asan="log_path=$logs/asan:log_exe_name=1:halt_on_error=1:detect_leaks=1"
if command -v nvidia-smi >/dev/null && nvidia-smi -L >/dev/null 2>&1; then
  asan="$asan:protect_shadow_gap=0"
fi
export ASAN_OPTIONS=$asan
export UBSAN_OPTIONS="log_path=$logs/ubsan:log_exe_name=1:halt_on_error=1:print_stacktrace=1"

status=0
ctest --test-dir "$dir" --output-on-failure -j "$(nproc)" -LE "fuzz|no-sanitizer" || status=1

reports=$(find "$logs" -type f | sort)
if [ -n "$reports" ]; then
  for f in $reports; do
    echo "test-sanitizers: report in $f:" >&2
    cat "$f" >&2
  done
  echo "test-sanitizers: FAILED: $(echo "$reports" | wc -l) sanitizer report(s)" >&2
  exit 1
fi
if [ "$status" -ne 0 ]; then
  echo "test-sanitizers: FAILED: tests failed in $dir (no sanitizer report)" >&2
  exit 1
fi
echo "test-sanitizers: every test passed in $dir, no sanitizer report"
