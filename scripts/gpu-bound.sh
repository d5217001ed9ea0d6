#!/usr/bin/env bash
# gpu-bound.sh - what bounds cured_reduce where it does not beat CUB, from
# Nsight Compute: speed of light, occupancy, scheduler and warp states
# (with the stall reasons ranked) for one launch each, a table last.
#
#   scripts/gpu-bound.sh [LOG2 ...]   from the repo root, after a build in
#                                     build/ (scripts/device.sh build bound
#                                     runs both); LOG2 the large f32 sizes,
#                                     24 28 30 when none are named
#   scripts/gpu-bound.sh --table [LOG2 ...]
#                                     the table again from the text pages
#                                     under $OUT/gpu-bound (any machine)
#
# Large sizes (warm L2, back to back as `cured bench --api` calls): the
# exact f32 sum, CUB's DeviceReduce::Sum (its main kernel) and the bench's
# read-only streaming kernel (the practical ceiling). Cold single tiles
# (ncu flushes every cache before the launch: --cache-control all): the
# sizes where CUB's single-tile kernel reads one full 16 KiB tile, f32
# 2^12, f64 2^11, f16 2^13, i32 2^12: cured's kernel, CUB's single-tile
# kernel and an empty kernel (the launch alone).
#
# Logs in ${OUT:-out}/gpu-bound/: each launch's report (.ncu-rep), its
# details page and its raw metrics as text. Exits 1 when ncu fails.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
out="${OUT:-out}/gpu-bound"
build="${CURED_BUILD:-build}"
cured=$build/cured
export PATH="$PATH:/usr/local/cuda/bin"
mkdir -p "$out"
table_only=0
if [ "${1:-}" = --table ]; then table_only=1; shift; fi
[ "$table_only" = 1 ] || command -v ncu > /dev/null || {
  echo "gpu-bound: no ncu (Nsight Compute) on PATH: run it on the GPU machine, scripts/device.sh build bound" >&2
  exit 2
}
[ "$table_only" = 1 ] || [ -x "$cured" ] || { echo "gpu-bound: $cured not built: scripts/device.sh build bound builds it first" >&2; exit 2; }
sizes="${*:-24 28 30}"
for lg in $sizes; do
  case "$lg" in
    1[0-9]|2[0-9]|3[0-3]) ;;
    *) echo "gpu-bound: '$lg' is not a size: give log2 n from 10 to 33 (e.g. 24 28 30)" >&2; exit 2 ;;
  esac
done
status=0

# profile NAME REGEX DTYPE LOG2 CACHE: one launch of the kernel matching
# REGEX (past 3 warm-up launches) in `cured bench --api` at 2^LOG2, its
# report, details page and raw page in $out/NAME.DTYPE.2^LOG2.*
profile() {
  local base="$out/$1.$3.2^$4"
  ncu --clock-control none --cache-control "$5" --kernel-name "regex:$2" \
    --launch-skip 3 --launch-count 1 --section SpeedOfLight --section Occupancy \
    --section SchedulerStats --section WarpStateStats --section InstructionStats \
    --export "$base" --force-overwrite \
    "$cured" bench --api --dtype "$3" --min-log2 "$4" --max-log2 "$4" \
    --runs 5 --target-ms 1 > "$base.log" 2>&1 || { status=1; tail -5 "$base.log"; return; }
  ncu --import "$base.ncu-rep" --page details > "$base.txt" 2>&1 || status=1
  ncu --import "$base.ncu-rep" --page raw > "$base.raw.txt" 2>&1 || status=1
}

field() { # field FILE LABEL: the value of the first details line starting with LABEL
  grep -m1 -E "^ +$2 " "$1" | awk '{print $NF}'
}
duration_us() { # duration_us FILE: the details page's "Duration  UNIT  VALUE"
  grep -m1 -E "^ +Duration " "$1" | awk '{u = $(NF-1); v = $NF; gsub(/,/, "", v)
    printf "%.2f", u == "ms" ? v * 1000 : u == "ns" ? v / 1000 : v}'
}
stalls() { # stalls RAWFILE: the three largest stall reasons, cycles per issue
  awk '$1 ~ /^smsp__average_warps_issue_stalled_.*_per_issue_active\.ratio$/ {
         r = $1; sub(/^smsp__average_warps_issue_stalled_/, "", r)
         sub(/_per_issue_active\.ratio$/, "", r); v = $NF; gsub(/,/, "", v)
         print v, r }' "$1" | sort -rn | head -3 | awk '{printf "%s %s  ", $2, $1}'
}
row() { # row NAME DTYPE LOG2
  local base="$out/$1.$2.2^$3"
  [ -f "$base.txt" ] || { printf '%-6s %-4s %5s  (no report)\n' "$1" "$2" "2^$3"; return; }
  printf '%-6s %-4s %5s %9s %9s %6s %6s %6s %6s %8s %11s  %s\n' "$1" "$2" "2^$3" \
    "$(duration_us "$base.txt")" "$(field "$base.txt" 'Elapsed Cycles')" \
    "$(field "$base.txt" 'DRAM Throughput')" \
    "$(field "$base.txt" 'Compute \(SM\) Throughput')" \
    "$(field "$base.txt" 'One or More Eligible')" "$(field "$base.txt" 'Achieved Occupancy')" \
    "$(field "$base.txt" 'Warp Cycles Per Issued Instruction')" \
    "$(field "$base.txt" 'Executed Instructions')" "$(stalls "$base.raw.txt")"
}

large="cured:exact_sum_kernel cub:DeviceReduceKernel read:^read_kernel"
cold="f32:12:exact_sum_kernel f64:11:exact_sum_kernel f16:13:exact_sum_kernel i32:12:int_sum_kernel"
if [ "$table_only" = 0 ]; then
  for lg in $sizes; do
    for k in $large; do profile "${k%%:*}" "${k#*:}" f32 "$lg" none; done
  done
  for c in $cold; do
    IFS=: read -r dt lg re <<< "$c"
    profile cured "$re" "$dt" "$lg" all
    profile cub SingleTile "$dt" "$lg" all
    profile empty '^empty_kernel' "$dt" "$lg" all
  done
fi

hdr() {
  printf '%-6s %-4s %5s %9s %9s %6s %6s %6s %6s %8s %11s  %s\n' kernel type n "dur(us)" cycles "dram%" \
    "sm%" "issue%" "occ%" "cyc/inst" "instrs" "top stalls (cycles per issued instruction)"
}
if [ "$table_only" = 1 ] && ! ls "$out"/*.txt > /dev/null 2>&1; then
  echo "gpu-bound: no pages under $out: run scripts/device.sh build bound first, or set OUT to the folder that holds gpu-bound/" >&2
  exit 1
fi
echo "== large sizes, warm L2 =="
hdr
for lg in $sizes; do for k in $large; do row "${k%%:*}" f32 "$lg"; done; done
echo "== cold single tiles (every cache flushed) =="
hdr
for c in $cold; do
  IFS=: read -r dt lg re <<< "$c"
  for name in cured cub empty; do row "$name" "$dt" "$lg"; done
done
exit $status
