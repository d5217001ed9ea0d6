#!/usr/bin/env bash
# device.sh - THE one script for the GPU machine: build, check, bench and
# model check in one call, every log under $OUT, a short summary last.
#
#   scripts/device.sh                    all four stages, in this order:
#   scripts/device.sh build check bench model     (or any of them, to rerun one)
#
#   build  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release; cmake --build -j 16
#   check  scripts/gpu-check.sh, when it exists (GPU ctests, compute-sanitizer)
#   bench  scripts/gpu-bench.sh (cured bench 2^10..2^30 f32)
#   model  scripts/gpu-model-check.sh, when it exists (model against ncu)
#
# Files under ${OUT:-out}/ (at most 8 come back from the device: the stage
# scripts should print to stdout rather than add files): build.log,
# check.log, bench.txt (progress, table, 2^26 summary), bench.csv,
# bench.json, model.log. The stage scripts get CURED_BUILD=build-gpu and
# OUT. A failing stage does not stop the next; the exit status is 1 when
# any stage failed. Each stage has a time cap and all of them together stay
# under DEVICE_BUDGET_S (default 570 s), inside the device's 10 minutes.
#
# cmocka: the CPU tests need it at configure time. Where the machine lacks
# it (or pkg-config), carry .devdeps/ (ignored by git) holding the .debs of
# libcmocka0, libcmocka-dev, pkgconf-bin and libpkgconf3; make it here with
#   mkdir -p .devdeps && (cd .devdeps && apt-get download libcmocka0 \
#     libcmocka-dev pkgconf-bin libpkgconf3)
# They are unpacked under /tmp/devdeps, never over /.
set -uo pipefail
cd "$(dirname "$0")/.."

out=${OUT:-out}
mkdir -p "$out"
export OUT="$out" CURED_BUILD=build-gpu
budget=${DEVICE_BUDGET_S:-570}
t_start=$SECONDS
tmp=$(mktemp -d)
summary_file=$tmp/summary
bench_summary=$tmp/bench-summary
: > "$summary_file"
trap 'rm -rf "$tmp"' EXIT
export out tmp bench_summary

stages=("$@")
[ ${#stages[@]} -eq 0 ] && stages=(build check bench model)
for s in "${stages[@]}"; do
  case "$s" in
    build|check|bench|model) ;;
    *) echo "device.sh: unknown stage '$s' (build check bench model)" >&2; exit 2 ;;
  esac
done

if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

# Makes cmocka findable through pkg-config, from .devdeps/ if the machine
# has none. Prints what it did; returns 1 when cmocka stays missing.
ensure_cmocka() {
  if command -v pkg-config >/dev/null && pkg-config --exists cmocka; then
    return 0
  fi
  if ! ls .devdeps/*.deb >/dev/null 2>&1; then
    echo "device.sh: cmocka or pkg-config missing here and no .devdeps/ carried" \
         "(see the header of scripts/device.sh)"
    return 1
  fi
  local root=/tmp/devdeps lib=/tmp/devdeps/usr/lib/x86_64-linux-gnu
  mkdir -p "$root"
  for f in .devdeps/*.deb; do dpkg-deb -x "$f" "$root" || return 1; done
  # Point the .pc file at the unpacked tree (no sysroot tricks: pkgconf
  # would drop its "system" -L path).
  sed -i "s#/usr#$root/usr#g" "$lib/pkgconfig/cmocka.pc"
  export PKG_CONFIG_PATH="$lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
  export LD_LIBRARY_PATH="$lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
  if ! command -v pkg-config >/dev/null; then
    ln -sf pkgconf "$root/usr/bin/pkg-config"
    export PATH="$root/usr/bin:$PATH"
  fi
  echo "device.sh: cmocka from .devdeps/ unpacked under $root"
  pkg-config --exists cmocka
}

# Seconds this stage may take: its cap, or what is left of the budget.
stage_limit() {
  local cap=$1 left=$((budget - (SECONDS - t_start) - 10))
  [ "$left" -lt "$cap" ] && cap=$left
  echo "$cap"
}

# run_stage NAME LOG CAP COMMAND...: runs COMMAND with its output in LOG
# under a time cap, and adds a line to the summary.
any_failed=0
run_stage() {
  local name=$1 log=$2 cap limit t0 rc result
  cap=$3
  shift 3
  limit=$(stage_limit "$cap")
  if [ "$limit" -lt 20 ]; then
    printf '%-6s %-36s %5s\n' "$name" "skipped: out of time" 0 >> "$summary_file"
    any_failed=1
    return
  fi
  echo "device.sh: $name (at most ${limit} s) ..." >&2
  t0=$SECONDS
  timeout --kill-after=10 "$limit" bash -c '"$@"' stage "$@" > "$log" 2>&1
  rc=$?
  case $rc in
    0) result=pass ;;
    124|137) result="FAIL (timeout ${limit} s)"; any_failed=1 ;;
    *) result="FAIL (exit $rc)"; any_failed=1 ;;
  esac
  printf '%-6s %-36s %5d\n' "$name" "$result" $((SECONDS - t0)) >> "$summary_file"
}

# skip_stage NAME WHY: a summary line for a stage that has nothing to run.
skip_stage() {
  printf '%-6s %-36s %5d\n' "$1" "skipped: $2" 0 >> "$summary_file"
}

build_stage() {
  echo "== $(date -u +%FT%TZ) $(git rev-parse --short HEAD 2>/dev/null) =="
  nvidia-smi --query-gpu=name,driver_version,clocks.sm,clocks.mem,temperature.gpu,power.draw \
    --format=csv 2>&1 || true
  nvcc --version | tail -2
  cat "$tmp/cmocka.log"
  cmake -S . -B build-gpu -DCMAKE_BUILD_TYPE=Release &&
    cmake --build build-gpu -j 16
}

bench_stage() {
  scripts/gpu-bench.sh > "$bench_summary" 2>&1
  local rc=$?
  cat "$bench_summary" >> "$out/bench.txt"
  return $rc
}
export -f build_stage bench_stage

# cmocka once, in this shell, so that its variables reach every stage.
case " ${stages[*]} " in
  *" build "*|*" check "*) ensure_cmocka > "$tmp/cmocka.log" 2>&1 ;;
  *) : > "$tmp/cmocka.log" ;;
esac

for s in "${stages[@]}"; do
  case "$s" in
    build) run_stage build "$out/build.log" 300 build_stage ;;
    check)
      if [ -x scripts/gpu-check.sh ]; then
        run_stage check "$out/check.log" 240 scripts/gpu-check.sh
      else
        skip_stage check "no scripts/gpu-check.sh"
      fi ;;
    bench) run_stage bench "$tmp/bench.log" 330 bench_stage ;; # all in bench.txt
    model)
      if [ -x scripts/gpu-model-check.sh ]; then
        run_stage model "$out/model.log" 180 scripts/gpu-model-check.sh
      else
        skip_stage model "no scripts/gpu-model-check.sh"
      fi ;;
  esac
done

echo
echo "== device.sh summary ($((SECONDS - t_start)) s; logs in $out/) =="
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>/dev/null | sed 's/^/gpu: /'
printf '%-6s %-36s %5s\n' stage result seconds
cat "$summary_file"
if [ -s "$bench_summary" ]; then
  cat "$bench_summary"
fi
exit "$any_failed"
