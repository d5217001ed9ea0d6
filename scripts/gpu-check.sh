#!/usr/bin/env bash
# gpu-check.sh - the catalogue's GPU acceptance checks, on a machine with a GPU.
#
#   scripts/gpu-check.sh          from the repo root, after a build in build/
#                                 (scripts/setup.sh); logs go to ${OUT:-out}/gpu-check/
#
# 1. the GPU ctests (label gpu: the catalogue sweep, the 2^32 + 5 test, the
#    bench's GPU tests);
# 2. compute-sanitizer memcheck, racecheck, synccheck and initcheck on every
#    catalogue kernel at a small size (n = 5000 f32, block 64: two warps;
#    racecheck again at block 256, so races between warps show), one line
#    per (kernel, tool): clean, or errors (count). The kernels that load 16
#    bytes at a time (shuffle_wide and the grid level) also run memcheck and
#    initcheck on a misaligned d_in (1 and 3 elements into a buffer whose
#    head is never written) at n = 4099 (three elements past the last
#    vector): a read before d_in or past its end shows there.
# unroll_warp is the exhibit of the old warp-synchronous code: racecheck is
# EXPECTED to report its race, and the first lines of what it says are kept.
# Exits non-zero if anything else fails. JOBS=N sanitizer runs at a time
# (default 4); about a minute on an H200.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

out="${OUT:-out}/gpu-check"
build="${CURED_BUILD:-build}"
bin=$build/tests/gpu/test_gpu_catalogue
jobs="${JOBS:-4}"
n=5000
kernels=(divergent strided sequential first_add unroll_warp unroll_warp_sync
         unrolled multi_elem shuffle shuffle_wide two_pass atomic single_pass)
wide_kernels=(shuffle_wide two_pass atomic single_pass)
n_misaligned=4099
exhibit=unroll_warp

export PATH="$PATH:/usr/local/cuda/bin"
sanitizer="$(command -v compute-sanitizer || true)"
if [ ! -x "$bin" ]; then
  echo "gpu-check: $bin not built (run scripts/setup.sh first)" >&2
  exit 2
fi
if [ -z "$sanitizer" ]; then
  echo "gpu-check: compute-sanitizer not found (PATH, /usr/local/cuda/bin)" >&2
  exit 2
fi
mkdir -p "$out"
status=0

# -- 1. ctest ------------------------------------------------------------------
echo "gpu-check: ctest -L gpu (log: $out/ctest.log)"
if ctest --test-dir "$build" -L gpu -V >"$out/ctest.log" 2>&1; then
  grep -E "tests passed|Skipped|Not Run" "$out/ctest.log" | sed 's/^/  /'
else
  echo "  FAILED:"; grep -E "Failed|\*\*\*" "$out/ctest.log" | sed 's/^/  /'
  status=1
fi
if grep -q "test_gpu_catalogue (Skipped)" "$out/ctest.log"; then
  echo "  the GPU tests were SKIPPED: is there a GPU?"; status=1
fi

# -- 2. compute-sanitizer ------------------------------------------------------
# The log of one run: $out/<kernel>.<tool>.b<block>[.off<offset>].log
log_of() {
  local kernel=$1 tool=$2 block=$3 offset=${4:-0} suffix=""
  [ "$offset" != 0 ] && suffix=".off$offset"
  echo "$out/$kernel.$tool.b$block$suffix.log"
}

# One run: writes its log and, beside it, .rc
sanitize() {
  local kernel=$1 tool=$2 block=$3 offset=${4:-0} size=$n
  local log
  log=$(log_of "$@")
  [ "$offset" != 0 ] && size=$n_misaligned
  "$sanitizer" --tool "$tool" --error-exitcode 1 \
    "$bin" --kernel "$kernel" --n "$size" --block "$block" --dtype f32 \
    --offset "$offset" >"$log" 2>&1
  echo $? >"${log%.log}.rc"
}

runs=()
for kernel in "${kernels[@]}"; do
  for tool in memcheck racecheck synccheck initcheck; do runs+=("$kernel $tool 64"); done
  runs+=("$kernel racecheck 256")
done
for kernel in "${wide_kernels[@]}"; do
  for offset in 1 3; do
    for tool in memcheck initcheck; do runs+=("$kernel $tool 64 $offset"); done
  done
done
echo "gpu-check: compute-sanitizer, ${#runs[@]} runs, $jobs at a time (logs: $out/)"
running=0
for r in "${runs[@]}"; do
  # shellcheck disable=SC2086
  sanitize $r &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

# Findings of one log: "errors" from the error summary (memcheck, synccheck,
# initcheck) or the hazards of racecheck's summary; 0 when none is printed.
findings() {
  local log=$1 count
  count=$(sed -n 's/.*ERROR SUMMARY: \([0-9]*\) error.*/\1/p' "$log" | tail -1)
  if [ -z "$count" ]; then
    count=$(sed -n 's/.*RACECHECK SUMMARY: \([0-9]*\) hazard.*/\1/p' "$log" | tail -1)
  fi
  echo "${count:-0}"
}

for r in "${runs[@]}"; do
  read -r kernel tool block offset <<<"$r"
  offset=${offset:-0}
  log=$(log_of "$kernel" "$tool" "$block" "$offset")
  rc=$(cat "${log%.log}.rc" 2>/dev/null || echo 99)
  count=$(findings "$log")
  label=$(printf "%-17s %-10s block %-4s" "$kernel" "$tool" "$block")
  [ "$offset" != 0 ] && label="$label d_in+$offset n=$n_misaligned"
  if [ "$rc" = 0 ] && [ "$count" = 0 ]; then
    if [ "$kernel" = "$exhibit" ] && [ "$tool" = racecheck ]; then
      echo "$label clean (the expected warp-synchronous race was NOT reported)"
    else
      echo "$label clean"
    fi
  elif [ "$kernel" = "$exhibit" ] && [ "$tool" = racecheck ] && [ "$count" != 0 ]; then
    echo "$label expected finding ($count): the exhibit's warp-synchronous race"
    grep -E "Race reported|hazard|Error|Warning" "$log" | head -4 | sed 's/^/    /'
    # the race may also make its sum wrong under the tool's scheduling
    grep "^FAIL" "$log" | head -1 | sed 's/^/    (and) /'
  else
    echo "$label errors ($count, exit $rc): see $log"
    grep -E "^FAIL|Invalid|Race reported|Error|Uninitialized|Barrier" "$log" |
      head -3 | sed 's/^/    /'
    status=1
  fi
done

if [ "$status" = 0 ]; then echo "gpu-check: PASS"; else echo "gpu-check: FAIL"; fi
exit "$status"
