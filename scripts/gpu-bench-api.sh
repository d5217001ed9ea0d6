#!/usr/bin/env bash
# gpu-bench-api.sh - cured_reduce on a GPU machine in one go: its GPU tests,
# the price of exactness, and `cured bench --api` against CUB, with the
# short tables last.
#
#   scripts/gpu-bench-api.sh       from the repo root, after a build in build/
#                                  (scripts/device.sh build bench-api runs both)
#
# 1. test_gpu_reduce (no --large): GPU bits against the CPU path's over 60
#    forced launch shapes, every data kind (the standard fill and 24- and
#    48-binade spreads included), misaligned inputs, 1000 repeats, bad input;
#    test_gpu_reduce_stream: calls behind an early-signalling producer and
#    in a captured graph.
# 2. test_gpu_reduce --price: exact against plain sums, f32 bf16 f64 f16,
#    2^10 .. 2^30, back to back, on the standard fill, on 24- and
#    48-binade spreads and on exponents over the whole range (capped at
#    PRICE_CAP_S, default 150 s).
# 3. cured bench --api: cured_reduce against CUB's DeviceReduce::Sum, f32
#    f64 i32 f16, 2^10 .. 2^30, warm (back to back) and cold (L2 flushed),
#    the launch floor, errors in ulps; $OUT/bench-api.csv, .json and .svg
#    (capped at BENCH_CAP_S, default 300 s).
# Logs in ${OUT:-out}/bench-api/. Prints the full price log and bench
# table, then the price ratios and the bench summary. Exits 1 if a step
# failed (a test, a timeout, a cured sum that is not the exact one).
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-out}"
logs="$out/bench-api"
build="${CURED_BUILD:-build}"
bin=$build/tests/gpu/test_gpu_reduce
cured=$build/cured
mkdir -p "$logs"
status=0
for f in "$bin" "$bin"_stream "$cured"; do
  [ -x "$f" ] || { echo "gpu-bench-api: $f not built" >&2; exit 2; }
done

t0=$SECONDS
timeout 150 "$bin" > "$logs/test.log" 2>&1; rc=$?
echo "test_gpu_reduce: exit $rc ($((SECONDS - t0)) s): $(tail -1 "$logs/test.log")"
[ $rc = 0 ] || { status=1; grep -m 20 FAIL "$logs/test.log"; }
timeout 60 "$bin"_stream > "$logs/stream.log" 2>&1; rc=$?
echo "test_gpu_reduce_stream: exit $rc: $(tail -1 "$logs/stream.log")"
[ $rc = 0 ] || { status=1; grep -m 20 FAIL "$logs/stream.log"; }

t0=$SECONDS
timeout "${PRICE_CAP_S:-150}" "$bin" --price > "$logs/price.log" 2>&1; rc=$?
echo "test_gpu_reduce --price: exit $rc ($((SECONDS - t0)) s)"
[ $rc = 0 ] || status=1

t0=$SECONDS
timeout "${BENCH_CAP_S:-300}" "$cured" bench --api --runs 15 --target-ms 30 \
  --csv="$out/bench-api.csv" --json="$out/bench-api.json" --svg "$out/bench-api.svg" \
  > "$logs/bench.log" 2> "$logs/bench.err"; rc=$?
echo "cured bench --api: exit $rc ($((SECONDS - t0)) s)"
[ $rc = 0 ] || { status=1; tail -5 "$logs/bench.err"; }

echo
echo "== test_gpu_reduce --price (us per call, back to back) =="
cat "$logs/price.log"
echo
echo "== cured bench --api =="
sed -n '/^cured_reduce against CUB/q;p' "$logs/bench.log"
echo
echo "== price of exactness: exact / plain =="
scripts/price-table.sh "$logs/price.log"
echo
sed -n '/^cured_reduce against CUB/,$p' "$logs/bench.log"
if [ $status = 0 ]; then echo "gpu-bench-api: PASS"; else echo "gpu-bench-api: FAIL"; fi
exit $status
