#!/usr/bin/env bash
# gpu-bound.sh - what bounds cured_reduce's exact f32 sum where it does not
# beat CUB: Nsight Compute's speed-of-light, occupancy, scheduler and
# warp-state sections for one launch of cured_reduce's exact sum, of CUB's
# DeviceReduce::Sum (its main kernel) and of the bench's read-only
# streaming kernel (the practical ceiling), at n = 2^24 and 2^28 f32,
# launched by `cured bench --api` (back to back, warm L2), a table last.
#
#   scripts/gpu-bound.sh       from the repo root, after a build in build/
#                              (scripts/device.sh build bound runs both)
#
# Logs in ${OUT:-out}/gpu-bound/ (one ncu report text per kernel and n).
# Exits 1 when ncu fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-out}/gpu-bound"
build="${CURED_BUILD:-build}"
cured=$build/cured
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$out"
command -v ncu > /dev/null || {
  echo "gpu-bound: no ncu (Nsight Compute) on PATH: run it on the GPU machine, scripts/device.sh build bound" >&2
  exit 2
}
[ -x "$cured" ] || { echo "gpu-bound: $cured not built: scripts/device.sh build bound builds it first" >&2; exit 2; }

status=0
# name, the kernel-name regex, launches to skip (past the warm-up calls)
kernels="cured:exact_sum_kernel:3 cub:DeviceReduceKernel:3 read:^read_kernel:3"
for lg in 24 28; do
  for k in $kernels; do
    IFS=: read -r name regex skip <<< "$k"
    log="$out/$name.2^$lg.txt"
    ncu --clock-control none --kernel-name "regex:$regex" --launch-skip "$skip" \
      --launch-count 1 --section SpeedOfLight --section Occupancy \
      --section SchedulerStats --section WarpStateStats \
      "$cured" bench --api --dtype f32 --min-log2 "$lg" --max-log2 "$lg" \
      --runs 5 --target-ms 1 > "$log" 2>&1 || { status=1; tail -5 "$log"; }
  done
done

# One row per report: the figures that name the bound.
field() { # field LOG LABEL: the value of the first line starting with LABEL
  grep -m1 -E "^ +$2 " "$1" | awk '{print $NF}'
}
printf '%-6s %5s %9s %7s %7s %7s %7s %7s %9s\n' kernel n "dur(us)" "dram%" "mem%" \
  "sm%" "issued%" "occ%" "cyc/inst"
for lg in 24 28; do
  for k in $kernels; do
    IFS=: read -r name regex skip <<< "$k"
    log="$out/$name.2^$lg.txt"
    dur=$(grep -m1 -E "^ +Duration " "$log" | awk '{print $(NF)" "$(NF-1)}')
    case "$dur" in
      *" ms") dur=$(awk -v d="${dur% ms}" 'BEGIN{printf "%.2f", d * 1000}') ;;
      *" us"|*" usecond") dur=${dur%% *} ;;
      *) dur=${dur%% *} ;;
    esac
    printf '%-6s %5s %9s %7s %7s %7s %7s %7s %9s\n' "$name" "2^$lg" "$dur" \
      "$(field "$log" 'DRAM Throughput')" "$(field "$log" 'Memory Throughput')" \
      "$(field "$log" 'Compute \(SM\) Throughput')" "$(field "$log" 'One or More Eligible')" \
      "$(field "$log" 'Achieved Occupancy')" \
      "$(field "$log" 'Warp Cycles Per Issued Instruction')"
  done
done
exit $status
