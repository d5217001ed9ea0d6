#!/usr/bin/env bash
# device.sh - THE one script for the GPU machine: build, check, bench and
# model check in one call, every log under $OUT, a short summary last.
#
#   scripts/device.sh                        all four stages, in this order
#   scripts/device.sh build check            any of them (build is implied
#                                            when build/ has no binaries yet)
#
#   build  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF
#          (the GPU machine has no cmocka; the CPU tests run in CI), make -k
#   check  scripts/gpu-check.sh   (GPU ctests, compute-sanitizer on every kernel)
#   bench  scripts/gpu-bench.sh   (cured bench 2^10..2^30 f32, 2^26 summary)
#   fidelity scripts/gpu-fidelity.sh: Nsight Compute's truth for the catalogue
#          and the fidelity set (every metric the model names, per-opcode
#          counts, two runs) and the model against it (cured model
#          --compare-ncu), a table per metric class last; `model` is the
#          same stage (run once when both are named)
#   reduce scripts/gpu-reduce.sh (cured_reduce: GPU tests, sanitizer, the
#          price of exactness; not in the default list: name it)
#   bench-api scripts/gpu-bench-api.sh (cured_reduce's GPU tests without
#          --large, the price of exactness, `cured bench --api` against CUB
#          with bench-api.csv/.json/.svg; not in the default list: name it,
#          `scripts/device.sh build bench-api`)
#   bound  scripts/gpu-bound.sh (Nsight Compute: cured_reduce's exact f32
#          sum, CUB's and the read kernel at 2^24, 2^28 and 2^30, and the
#          cold single tiles against CUB's single-tile kernel: what bounds
#          each; not in the default list: name it)
#   sharded scripts/gpu-sharded.sh (cured_reduce_sharded: one rank against
#          cured_reduce bit for bit, its overhead 2^10..2^30; with 2+ GPUs
#          the two-rank runs, else skipped; not in the default list)
#   tour   build/cured tour (the main job, GPU part included)
#
# $OUT keeps summary.txt, check.log, bench-summary.log, bench.csv,
# fidelity.txt, fidelity.tar.gz, reduce.log, sharded.log, bench-api.log,
# bench-api.csv, bench-api.json, bench-api.svg, bound.log and logs.tar.gz (everything:
# build log, bench progress and JSON, sanitizer logs, the tour), those the
# stages run made: the device returns at most 8 files, so name few stages
# per call (`build bench-api` returns 6). Files already in $OUT when it
# starts (a caller's own, or the one its output is redirected to) are left
# as they are. A failing stage does not stop the next; the exit status is 1
# when any stage failed. All stages together stay under DEVICE_BUDGET_S
# (default 570 s), inside the device's 10-minute limit.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-out}
mkdir -p "$out"
# what was in $out before (a caller's own files, the file its output is
# redirected to): left as it is, outside the archive
keep=() excl=()
while IFS= read -r f; do
  keep+=(! -name "$f")
  excl+=("--exclude=./$f")
done < <(find "$out" -mindepth 1 -maxdepth 1 -printf '%f\n')
export OUT="$out" CURED_BUILD=build
budget=${DEVICE_BUDGET_S:-570}
t_start=$SECONDS
summary="$out/summary.txt"
: > "$summary"

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(build check bench model)
for s in "${stages[@]}"; do
  case "$s" in
    build|check|bench|model|fidelity|tour|reduce|bench-api|bound|sharded) ;;
    *) echo "device.sh: unknown stage '$s' (build check bench model fidelity tour reduce bench-api bound sharded)" >&2; exit 2 ;;
  esac
done
if [ ! -x build/cured ] && [ "${stages[0]}" != build ]; then
  stages=(build "${stages[@]}")
fi
export PATH=$PATH:/usr/local/cuda/bin
# NVLink multicast (NVLS) stays off on the lent machines, for every NCCL user.
export NCCL_NVLS_ENABLE=0

build_stage() {
  echo "== $(date -u +%FT%TZ) =="
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1 || true
  nvcc --version | tail -2
  cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF &&
    cmake --build build -j 16 -- -k
}
export -f build_stage

# run_stage NAME LOG CAP COMMAND...: COMMAND's output to LOG, under a time
# cap (its own, or what is left of the budget); one summary line.
any_failed=0
run_stage() {
  local name=$1 log=$2 cap=$3 left t0 rc result
  shift 3
  left=$((budget - (SECONDS - t_start) - 15))
  [ "$left" -lt "$cap" ] && cap=$left
  if [ "$cap" -lt 20 ]; then
    printf '%-6s %-28s %5s\n' "$name" "skipped: out of time" 0 >> "$summary"
    any_failed=1
    return
  fi
  echo "device.sh: $name (at most $cap s) ..." >&2
  t0=$SECONDS
  timeout --kill-after=10 "$cap" bash -c '"$@"' stage "$@" > "$log" 2>&1
  rc=$?
  case $rc in
    0) result=pass ;;
    124|137) result="FAIL (timeout $cap s)"; any_failed=1 ;;
    *) result="FAIL (exit $rc)"; any_failed=1 ;;
  esac
  printf '%-6s %-28s %5d\n' "$name" "$result" $((SECONDS - t0)) >> "$summary"
}

for s in "${stages[@]}"; do
  case "$s" in
    build) run_stage build "$out/build.log" 300 build_stage ;;
    check) run_stage check "$out/check.log" 240 scripts/gpu-check.sh ;;
    bench) run_stage bench "$out/bench-summary.log" 330 scripts/gpu-bench.sh ;;
    model|fidelity)
      if [ -z "${fidelity_ran:-}" ]; then
        fidelity_ran=1
        run_stage fidelity "$out/fidelity.log" 330 scripts/gpu-fidelity.sh
      fi ;;
    tour) run_stage tour "$out/tour.log" 120 build/cured tour ;;
    reduce) run_stage reduce "$out/reduce.log" 420 scripts/gpu-reduce.sh ;;
    bench-api) run_stage bench-api "$out/bench-api.log" 500 scripts/gpu-bench-api.sh ;;
    bound) run_stage bound "$out/bound.log" 540 scripts/gpu-bound.sh ;;
    sharded) run_stage sharded "$out/sharded.log" 300 scripts/gpu-sharded.sh ;;
  esac
done

# Everything in one archive (sanitizer logs live in subfolders); keep a few
# files beside it, since the device returns at most 8.
tar -C "$out" "${excl[@]}" -czf /tmp/cured-logs.tar.gz . 2>/dev/null &&
  mv /tmp/cured-logs.tar.gz "$out/logs.tar.gz"
find "$out" -mindepth 1 -maxdepth 1 "${keep[@]}" ! -name logs.tar.gz ! -name summary.txt \
  ! -name check.log ! -name bench.csv ! -name fidelity.txt \
  ! -name bench-summary.log ! -name fidelity.tar.gz ! -name reduce.log \
  ! -name bench-api.log ! -name bench-api.csv ! -name bench-api.json ! -name bench-api.svg \
  ! -name sharded.log ! -name bound.log \
  -exec rm -rf {} + 2>/dev/null

{
  echo
  echo "== check (tail) =="
  [ -f "$out/check.log" ] && tail -n 40 "$out/check.log"
  echo
  echo "== tour (tail) =="
  [ -f "$out/tour.log" ] && tail -n 12 "$out/tour.log"
  echo
  if [ -f "$out/reduce.log" ]; then
    echo
    echo "== reduce (tail) =="
    tail -n 45 "$out/reduce.log"
  fi
  if [ -f "$out/bench-api.log" ]; then
    echo
    echo "== bench-api (tail: price ratios, cured against CUB) =="
    sed -n '/^== price of exactness: exact \/ plain ==/,$p' "$out/bench-api.log"
  fi
  if [ -f "$out/bound.log" ]; then
    echo
    echo "== bound (ncu: what bounds each kernel) =="
    sed -n "/^== large sizes/,\$p" "$out/bound.log"
  fi
  if [ -f "$out/sharded.log" ]; then
    echo
    echo "== sharded (tail) =="
    tail -n 30 "$out/sharded.log"
  fi
  echo
  echo "== bench at 2^26 (tail) =="
  [ -f "$out/bench-summary.log" ] && tail -n 30 "$out/bench-summary.log"
  if [ -f "$out/fidelity.txt" ]; then
    echo
    echo "== the model against ncu (fidelity.txt, tail) =="
    tail -n 24 "$out/fidelity.txt"
  fi
  echo
  echo "== device.sh summary ($((SECONDS - t_start)) s) =="
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
  printf '%-6s %-28s %5s\n' stage result seconds
  cat "$summary"
} | tee -a "$out/summary.txt.tmp"
mv "$out/summary.txt.tmp" "$summary"
exit "$any_failed"
