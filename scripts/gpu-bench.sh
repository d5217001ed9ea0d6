#!/usr/bin/env bash
# gpu-bench.sh - runs `cured bench` on a GPU machine and prints the n = 2^26
# summary and Harris's ordering check last.
#
#   scripts/gpu-bench.sh [cured bench options]     (after a build in build/)
#   CURED_BUILD=build-gpu OUT=/tmp/o scripts/gpu-bench.sh --max-log2 28
#
# Writes under ${OUT:-out}/: bench.txt (progress, then the table), bench.csv,
# bench.json. Default range 2^10..2^30, f32: a few minutes at most (each
# kernel and n is timed for ~50 ms, at most 0.5 s). Exits with the bench's
# status (1 on a mismatch against CUB or a CUDA error); a step that is not
# faster than the one before it is reported, not failed.
set -uo pipefail
cd "$(dirname "$0")/.."
build=${CURED_BUILD:-build}
out=${OUT:-out}
mkdir -p "$out"

if [ ! -x "$build/cured" ]; then
  echo "gpu-bench: no $build/cured: build first (cmake -S . -B $build && cmake --build $build)" >&2
  exit 1
fi

# Progress (stderr) first, then the table (stdout), in bench.txt.
"$build/cured" bench --csv="$out/bench.csv" --json="$out/bench.json" "$@" \
  > "$out/bench.table" 2> "$out/bench.txt"
status=$?
cat "$out/bench.table" >> "$out/bench.txt"
rm -f "$out/bench.table"
echo "gpu-bench: cured bench exited $status; table in $out/bench.txt" >&2

if [ ! -s "$out/bench.csv" ]; then
  echo "gpu-bench: no results; cured bench said:" >&2
  cat "$out/bench.txt" >&2
  exit "$status"
fi

# The summary: n = 2^26 when it was measured, else the largest n there is.
# CSV fields: 1 kernel, 2 log2n, 7 median_us, 12 noise_pct, 13 gbps,
# 14 pct_read, 15 x_cub, 16 check (the note, last, may hold commas).
awk -F, '
  NR == 1 { next }
  { rows[NR] = $0; if ($2 == 26) has26 = 1; if ($2 > maxk) maxk = $2 }
  END {
    k = has26 ? 26 : maxk
    printf "\n== cured bench at n = 2^%d (%s) ==\n", k, dtype_of(rows)
    printf "%-17s %10s %9s %7s %7s  %s\n", "kernel", "us", "GB/s", "%read", "xCUB", "check"
    for (i = 2; i <= NR; i++) {
      split(rows[i], f, ",")
      if (f[2] != k) continue
      printf "%-17s %10s %9s %7s %7s  %s\n", f[1], or_dash(f[7]), or_dash(f[13]),
             or_dash(f[14]), or_dash(f[15]), f[16]
      us[f[1]] = f[7]; noise[f[1]] = f[12]
    }
    # Harris order; unroll_warp_sync is a second step 5, beside unroll_warp.
    n = split("divergent strided sequential first_add unroll_warp unrolled multi_elem shuffle shuffle_wide", order, " ")
    printf "\n== Harris order at 2^%d: is each step at least as fast as the one before? ==\n", k
    bad = ""
    for (i = 2; i <= n; i++) {
      step(order[i - 1], order[i])
      if (order[i] == "unroll_warp") step(order[i - 1], "unroll_warp_sync")
      if (order[i] == "unrolled") step("unroll_warp_sync", "unrolled")
    }
    print (bad == "" ? "all steps at least as fast as the one before" : "NOT faster:" bad)
  }
  function dtype_of(r,   f) { split(r[2], f, ","); return f[4] }
  function or_dash(v) { return v == "" ? "-" : v }
  function step(a, b,   ratio, tol, verdict) {
    if (!(a in us) || !(b in us))
      return # not selected with --kernels
    if (us[a] == "" || us[b] == "") {
      printf "%-17s -> %-17s not measured\n", a, b
      return
    }
    ratio = us[a] / us[b]
    # within the larger interquartile spread of the two: call it noise
    tol = (noise[a] > noise[b] ? noise[a] : noise[b]) / 100
    verdict = us[b] <= us[a] ? "faster" : (ratio >= 1 - tol ? "slower, within noise" : "SLOWER")
    printf "%-17s -> %-17s %7.2fx  %s\n", a, b, ratio, verdict
    if (us[b] > us[a]) bad = bad " " a "->" b
  }
' "$out/bench.csv"
exit "$status"
