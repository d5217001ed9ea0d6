#!/usr/bin/env bash
# gpu-reduce.sh - cured_reduce on a GPU machine: its tests, compute-sanitizer
# on every path, and the price of exactness, with a short table last.
#
#   scripts/gpu-reduce.sh          from the repo root, after a build in build/
#                                  (scripts/device.sh build); logs in
#                                  ${OUT:-out}/gpu-reduce/
#
# 1. test_gpu_reduce: GPU bits against the CPU path's over 72 forced launch
#    shapes, misaligned inputs, 1000 repeated calls, bad input;
#    test_gpu_reduce --large: 2^28 of every float type and data kind,
#    2^32 + 5 f16 (skipped when REDUCE_LARGE=0); test_gpu_reduce_stream:
#    calls behind a producer that lets them launch early (programmatic
#    dependent launch) and in a captured graph.
# 2. compute-sanitizer memcheck, racecheck, synccheck, initcheck on one call
#    per path: exact sums of f16, bf16, f32, f64 (one block, 7 blocks, and
#    clusters of 16 and 8 blocks; d_in misaligned; one block of one trip,
#    the short ways through doubles and, f64, a double-double, in blocks of
#    256, 768 and 1024 threads), an integer
#    sum, min, argmax; one warp's lane bins sent before the end (f32 and
#    bf16, --bins-full); memcheck and synccheck on test_gpu_reduce_stream.
# 3. test_gpu_reduce --price: exact against plain (not exact) sums of the
#    same kernel shape, f32, bf16, f64, f16, 2^10 .. 2^30, back-to-back
#    calls, on the standard fill, on 24- and 48-binade spreads and on
#    exponents over the whole range (the superaccumulator's slow path);
#    block sizes 128 .. 1024 at 2^24 and up; then the ratios
#    (price-table.sh).
# Exits non-zero if a test or a sanitizer run fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-out}/gpu-reduce"
build="${CURED_BUILD:-build}"
bin=$build/tests/gpu/test_gpu_reduce
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$out"
status=0
for f in "$bin" "$bin"_stream; do
  [ -x "$f" ] || { echo "gpu-reduce: $f not built (scripts/device.sh build)" >&2; exit 2; }
done

echo "== gpu-reduce: tests =="
t0=$SECONDS
"$bin" > "$out/test.log" 2>&1; rc=$?
echo "test_gpu_reduce: exit $rc ($((SECONDS - t0)) s): $(tail -1 "$out/test.log")"
[ $rc = 0 ] || { status=1; grep -m 20 FAIL "$out/test.log"; }
if [ "${REDUCE_LARGE:-1}" = 1 ]; then
  t0=$SECONDS
  "$bin" --large > "$out/large.log" 2>&1; rc=$?
  echo "test_gpu_reduce --large: exit $rc ($((SECONDS - t0)) s): $(tail -1 "$out/large.log")"
  [ $rc = 0 ] || { status=1; grep -m 20 FAIL "$out/large.log"; }
fi

"$bin"_stream > "$out/stream.log" 2>&1; rc=$?
echo "test_gpu_reduce_stream: exit $rc: $(tail -1 "$out/stream.log")"
[ $rc = 0 ] || { status=1; grep -m 20 FAIL "$out/stream.log"; }

# One sanitizer run's line: report WHAT TOOL LOG EXIT (clean, or the count
# of errors or hazards its log ends with; a failure sets status).
report() {
  local count
  count=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p;s/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$3" | tail -1)
  if [ "$4" = 0 ] && [ "${count:-0}" = 0 ]; then
    printf '%-32s %-10s clean\n' "$1" "$2"
  else
    printf '%-32s %-10s ERRORS (%s, exit %s): %s\n' "$1" "$2" "${count:-?}" "$4" "$3"
    status=1
  fi
}

echo "== gpu-reduce: compute-sanitizer =="
sanitizer="$(command -v compute-sanitizer || true)"
if [ -z "$sanitizer" ]; then
  echo "compute-sanitizer not found"; status=1
else
  runs=("sum f16 100003 1 7 256" "sum bf16 100003 1 7 256" "sum f32 100003 1 7 256"
        "sum f64 100003 1 7 256" "sum f32 5000 0 1 64" "sum f64 5000 3 1 1024"
        "sum f32 100003 1 16 256 16" "sum f64 100003 3 8 128 8"
        "sum f32 4096 0 1 256" "sum f16 8192 0 1 256" "sum f64 2048 0 1 256"
        "sum f32 12289 0 1 768" "sum f16 30000 0 1 1024"
        "sum i32 100003 1 7 256" "min f32 100003 1 7 256" "argmax f16 100003 1 7 128"
        "sum f32 0 0 1 256")
  for r in "${runs[@]}"; do
    for tool in memcheck racecheck synccheck initcheck; do
      log="$out/san.$(echo "$r" | tr ' ' _).$tool.log"
      # shellcheck disable=SC2086
      "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin" --one $r > "$log" 2>&1
      rc=$?
      report "$r" "$tool" "$log" $rc
    done
  done
  # the lane bins' send before the end (one warp, 2^21 + 2^19 + 3
  # elements: 81920 a lane, one send at 2^16), f32 and bf16
  for tool in memcheck racecheck synccheck initcheck; do
    log="$out/san.bins-full.$tool.log"
    "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin" --bins-full 2621443 > "$log" 2>&1
    report bins-full "$tool" "$log" $?
  done
  for tool in memcheck synccheck; do
    log="$out/san.stream.$tool.log"
    "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin"_stream --no-overlap > "$log" 2>&1
    report stream "$tool" "$log" $?
  done
fi

echo "== gpu-reduce: price of exactness (us per call, back to back) =="
"$bin" --price > "$out/price.log" 2>&1 || status=1
cat "$out/price.log"
scripts/price-table.sh "$out/price.log"
if [ $status = 0 ]; then echo "gpu-reduce: PASS"; else echo "gpu-reduce: FAIL"; fi
exit $status
