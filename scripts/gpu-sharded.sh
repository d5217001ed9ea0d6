#!/usr/bin/env bash
# gpu-sharded.sh - cured_reduce_sharded on a GPU machine: the one-rank path
# against cured_reduce bit for bit, its overhead, and with two GPUs or more
# the two-rank runs (issue 11); a short table last.
#
#   scripts/gpu-sharded.sh        from the repo root, after a build in build/
#                                 (scripts/device.sh build); logs in
#                                 ${OUT:-out}/gpu-sharded/
#
# NCCL_NVLS_ENABLE=0 always (NVLink multicast stays off on the lent machines).
# 1. test_gpu_sharded: one rank on GPU 0 against cured_reduce: f32, f64, i32
#    (every op, flag and data kind, n 0 .. 2^24 + 7) and the other dtypes,
#    a misaligned shard, 200 calls back to back, a CUDA graph replayed, bad
#    input; test_gpu_sharded --large: n = 2^28 and 2^30 (SHARDED_LARGE=0
#    skips it).
# 2. compute-sanitizer memcheck and initcheck on one rank's calls (reported,
#    not fatal: NCCL's own kernels run under them too).
# 3. test_gpu_sharded --overhead: us per call back to back, one rank against
#    cured_reduce, f32 sum, 2^10 .. 2^30, and NCCL's allgather alone.
# 4. With 2 GPUs or more (nvidia-smi -L): test_gpu_sharded --gpus 2 (equal,
#    unequal, empty shards; f32, f64, i32; n 3, 2^20 + 1, 2^31, 2^33;
#    disagreeing and refusing ranks), cured bench --gpus 1 and --gpus 2 at
#    2^10 .. 2^24 and 2^31 .. 2^33, and examples/mpi_sum under
#    `mpirun -np 2` where MPI was found. With one GPU: says it skipped.
# Exits non-zero if a test fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-out}/gpu-sharded"
build="${CURED_BUILD:-build}"
bin=$build/tests/gpu/test_gpu_sharded
export PATH="$PATH:/usr/local/cuda/bin"
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
status=0
results=()
if [ ! -x "$bin" ]; then
  echo "gpu-sharded: $bin not built (no NCCL found at configure time?)" >&2
  exit 2
fi

gpus=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU ')

# run NAME LOG COMMAND...: COMMAND's output to LOG; one result line. A
# skip (77) fails too where nvidia-smi sees a GPU: the build lacked NCCL,
# or CUDA found no device.
run() {
  local name=$1 log=$2 t0=$SECONDS rc
  shift 2
  "$@" > "$log" 2>&1; rc=$?
  local line
  line=$(printf '%-34s exit %-3s %4d s  %s' "$name" "$rc" $((SECONDS - t0)) "$(tail -1 "$log")")
  echo "$line"
  results+=("$line")
  if [ "$rc" != 0 ] && { [ "$rc" != 77 ] || [ "${gpus:-0}" -gt 0 ]; }; then
    status=1
    grep -m 20 FAIL "$log"
  fi
  return "$rc"
}

echo "== gpu-sharded: one rank against cured_reduce =="
nvidia-smi -L 2>&1 | sed 's/^/gpu: /'
run "test_gpu_sharded" "$out/test.log" "$bin"
if [ "${SHARDED_LARGE:-1}" = 1 ]; then
  run "test_gpu_sharded --large" "$out/large.log" "$bin" --large
fi

echo "== gpu-sharded: compute-sanitizer (reported, not fatal) =="
sanitizer="$(command -v compute-sanitizer || true)"
if [ -z "$sanitizer" ]; then
  echo "compute-sanitizer not found"
else
  for tool in memcheck initcheck; do
    log="$out/san.$tool.log"
    timeout 120 "$sanitizer" --tool "$tool" --error-exitcode 1 "$bin" --one \
      > "$log" 2>&1
    echo "sanitizer $tool: exit $? ($(grep -m1 -E 'ERROR SUMMARY|error' "$log" || tail -1 "$log"))"
  done
fi

echo "== gpu-sharded: overhead of one rank (us per call, back to back) =="
run "test_gpu_sharded --overhead" "$out/overhead.log" "$bin" --overhead
cat "$out/overhead.log"

echo "== gpu-sharded: two GPUs (issue 11): this machine has ${gpus:-0} =="
if [ "${gpus:-0}" -lt 2 ]; then
  line="two-GPU part                       skipped: fewer than two GPUs (nvidia-smi -L)"
  echo "$line"
  results+=("$line")
else
  run "test_gpu_sharded --gpus 2" "$out/gpus2.log" "$bin" --gpus 2
  for g in 1 2; do
    run "cured bench --gpus $g 2^10..2^24" "$out/bench-gpus$g-small.log" \
      "$build/cured" bench --gpus "$g" --min-log2 10 --max-log2 24 --csv="$out/bench-gpus$g-small.csv"
    cat "$out/bench-gpus$g-small.log"
    run "cured bench --gpus $g 2^31..2^33" "$out/bench-gpus$g-large.log" \
      "$build/cured" bench --gpus "$g" --min-log2 31 --max-log2 33 --runs 5 \
      --csv="$out/bench-gpus$g-large.csv"
    cat "$out/bench-gpus$g-large.log"
  done
  mpi_sum=$build/tests/gpu/mpi_sum
  if [ -x "$mpi_sum" ] && command -v mpirun > /dev/null; then
    for dt in f32 f64 i32; do
      run "mpirun -np 2 mpi_sum 2^20+1 $dt" "$out/mpi-$dt.log" \
        mpirun --allow-run-as-root --oversubscribe -np 2 -x NCCL_NVLS_ENABLE \
        "$mpi_sum" $(((1 << 20) + 1)) "$dt"
      cat "$out/mpi-$dt.log"
    done
  else
    line="mpirun -np 2 mpi_sum                skipped: no mpirun or mpi_sum not built (no MPI)"
    echo "$line"
    results+=("$line")
  fi
fi

echo
echo "== gpu-sharded: summary =="
printf '%s\n' "${results[@]}"
echo "-- overhead of one rank (f32 sum, us per call, back to back) --"
cat "$out/overhead.log"
if [ $status = 0 ]; then echo "gpu-sharded: PASS"; else echo "gpu-sharded: FAIL"; fi
exit $status
