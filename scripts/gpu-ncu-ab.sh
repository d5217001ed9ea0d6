#!/usr/bin/env bash
# gpu-ncu-ab.sh - an A/B of cured_reduce's kernel alone: Nsight Compute's
# duration of the kernel (gpu__time_duration), not the call, for A (the
# tree as it is) and variants (a patch or extra CUDA flags, as gpu-ab.sh
# builds them), so that a change to the kernel's tail can be seen where
# the host's launch rate moves whole calls by more than the change (the
# small sizes on a busy host: docs/results.md, "eighth round").
#
#   scripts/gpu-ncu-ab.sh [--flags "CUDA FLAGS"] [--patch FILE]...
#                         [--launches N] [--cold] [--kernel REGEX]
#                         [--check] [--prebuilt DIR] [--metrics LIST]
#                         [-- [KIND:]DTYPE:LOG2N ...]
#
#   --flags, --patch  the variants, as in gpu-ab.sh (--patch at most three)
#   --prebuilt  the builds of scripts/ab-prebuild.sh's pack in DIR (made
#               on another machine with the same --flags/--patch, DIR
#               carried here) rather than compiled here
#   --check     each build's test_gpu_reduce first, as in gpu-ab.sh (a
#               variant that fails it is not profiled)
#   --launches  kernels timed per profile (default 15, after 20 skipped)
#   --cold      Nsight Compute flushes the caches before each kernel
#               (default: not, the input warm in L2 as in back-to-back calls)
#   --kernel    the kernel-name regex (default exact_sum: the float sums)
#   --metrics   Nsight Compute metrics (comma-separated, e.g. the pipes'
#               sm__inst_executed_pipe_fp64.sum) read in a profile of their
#               own per build and case (3 launches after 20), apart from
#               the timed ones, whose replays they would disturb; a second
#               table gives each one's median per launch and build
#   after --    the cases, e.g. f32:14 (default: f32:13 f32:14 f32:16
#               f64:14 f16:15 f32:20 f32:24), or with a data kind of
#               tests/gpu/reduce_fill.cuh (standard, spread48, wide, ...),
#               e.g. spread48:f64:22 (bf16, which the bench does not time,
#               only with a kind: standard:bf16:24)
#
# Each case is profiled twice per build, alternating A and the variants,
# in `cured bench --api --dtype DTYPE` at n = 2^LOG2N (the bench's standard
# fill), or with a KIND in `test_gpu_reduce --kind KIND --repeat R --one
# sum DTYPE 2^LOG2N 0` (calls one after another, each checked against the
# CPU's bits; built as the check is). The table: per case
# and build the median, minimum and maximum over the launches of both
# profiles (ns), and A's median over each variant's (above 1: the variant
# is faster). Logs under ${OUT:-out}/ncu-ab/. Exits 1 when a build, a
# pack, a check or a profile fails, 2 on bad usage or without ncu.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/ab-variants.sh
. scripts/ab-variants.sh
usage() { sed -n '9,33p' "$0" >&2; exit 2; }

flags="" launches=15 cache=none regex=exact_sum check=0 prebuilt="" metrics=""
patches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --flags) [ $# -ge 2 ] || usage; flags=$2; shift 2 ;;
    --patch) [ $# -ge 2 ] || usage; patches+=("$2"); shift 2 ;;
    --launches) [ $# -ge 2 ] || usage; launches=$2; shift 2 ;;
    --cold) cache=all; shift ;;
    --kernel) [ $# -ge 2 ] || usage; regex=$2; shift 2 ;;
    --check) check=1; shift ;;
    --prebuilt) [ $# -ge 2 ] || usage; prebuilt=$2; shift 2 ;;
    --metrics) [ $# -ge 2 ] || usage; metrics=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "gpu-ncu-ab: unknown argument '$1'" >&2; usage ;;
  esac
done
cases=("$@")
[ ${#cases[@]} -eq 0 ] && cases=(f32:13 f32:14 f32:16 f64:14 f16:15 f32:20 f32:24)
ab_check_variants gpu-ncu-ab || usage
ab_positive gpu-ncu-ab --launches "$launches" || exit 2
# split_case CASE: sets kind (empty without one), dt and lg from
# [KIND:]DTYPE:LOG2N.
split_case() {
  lg=${1##*:} dt=${1%:*} kind=
  case "$dt" in *:*) kind=${dt%%:*} dt=${dt#*:} ;; esac
}

kinds=0
for c in "${cases[@]}"; do
  split_case "$c"
  [ -n "$kind" ] && kinds=1
  case "$dt" in f16|f32|f64|i32) ;; bf16) [ -n "$kind" ] || lg=x ;; *) lg=x ;; esac
  case "$kind" in *[!a-z0-9-]*) lg=x ;; esac
  case "$lg" in
    ''|*[!0-9]*) echo "gpu-ncu-ab: a case is [KIND:]DTYPE:LOG2N (f16 f32 f64 i32; bf16 with a KIND), not '$c'" >&2; exit 2 ;;
  esac
done
export PATH="$PATH:/usr/local/cuda/bin"
command -v ncu > /dev/null ||
  { echo "gpu-ncu-ab: no ncu (Nsight Compute) on PATH: run it on the GPU machine" >&2; exit 2; }

out="${OUT:-out}/ncu-ab"
ab_dir="${AB_DIR:-/tmp/cured-ab}"
mkdir -p "$out"
rm -f "$out"/*.csv
t0=$SECONDS
targets=(cured_cli)
[ "$check" = 1 ] || [ "$kinds" = 1 ] && targets+=(test_gpu_reduce)
ab_build_all
echo "gpu-ncu-ab: builds ${prebuilt:+unpacked from $prebuilt, }ready in $((SECONDS - t0)) s"
[ "$check" = 1 ] && ab_run_checks gpu-ncu-ab

# profile VARIANT KIND DTYPE LOG2N REP [METRICS COUNT]: the durations (ns)
# of the kernel's launches into $out/VARIANT.DTYPE[-KIND].LOG2N.REP.csv
# (ncu's CSV as it is); KIND empty: the bench's launches. With METRICS,
# those metrics of COUNT launches instead.
profile() {
  local id="$3${2:+-$2}" dir what=${6:-gpu__time_duration.sum} count=${7:-$launches}
  local f="$out/$1.$id.$4.$5.csv" log="$out/$1.$id.$4.$5.log"
  dir=$(ab_dir_of "$1")
  local run=("$dir/cured" bench --api --dtype "$3" --min-log2 "$4" --max-log2 "$4"
             --runs 5 --target-ms 1)
  [ -n "$2" ] && run=("$dir/tests/gpu/test_gpu_reduce" --kind "$2"
                      --repeat $((20 + count)) --one sum "$3" $((1 << $4)) 0)
  ncu --clock-control none --cache-control "$cache" --kernel-name "regex:$regex" \
    --launch-skip 20 --launch-count "$count" --metrics "$what" --csv \
    "${run[@]}" > "$f" 2> "$log" ||
    { tail -3 "$log"; echo "gpu-ncu-ab: ncu failed for $1 $id 2^$4" >&2; return 1; }
}

status=0
for c in "${cases[@]}"; do
  split_case "$c"
  for rep in 1 2; do
    for v in "${names[@]}"; do
      profile "$v" "$kind" "$dt" "$lg" "$rep" || status=1
    done
  done
  if [ -n "$metrics" ]; then
    for v in "${names[@]}"; do
      profile "$v" "$kind" "$dt" "$lg" metrics "$metrics" 3 || status=1
    done
  fi
done
echo "gpu-ncu-ab: profiles done in $((SECONDS - t0)) s"

python3 - "$out" "$cache" "$metrics" "${names[@]}" <<'PY'
import csv, glob, statistics, sys
out, cache, metrics, names = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
def values(v, dt, lg, metric, rep="*"):
    """Every launch's value of METRIC (ns for a duration) in the profiles."""
    xs = []
    for f in glob.glob(f"{out}/{v}.{dt}.{lg}.{rep}.csv"):
        lines = [l for l in open(f) if l.startswith('"')]
        for row in csv.DictReader(lines):
            if row.get("Metric Name") == metric:
                x = float(row["Metric Value"].replace(",", ""))
                unit = row.get("Metric Unit", "")
                xs.append(x * {"usecond": 1e3, "msecond": 1e6}.get(unit, 1.0))
    return xs
def durations(v, dt, lg):
    return values(v, dt, lg, "gpu__time_duration.sum")
cases = sorted({tuple(f.rsplit("/", 1)[1].split(".")[1:3])
                for f in glob.glob(out + "/*.csv")}, key=lambda c: (c[0], int(c[1])))
head = f"{'case':16}"
for v in names:
    head += f" {v.upper() + ' med':>9} {'min':>8} {'max':>8}"
    if v != "a":
        head += f" {'A/' + v.upper():>6}"
print(f"kernel durations, ns (cache {cache}):")
print(head)
for dt, lg in cases:
    line, a = f"{dt + ' 2^' + lg:16}", None
    for v in names:
        d = durations(v, dt, lg)
        if not d:
            line += f" {'-':>9} {'-':>8} {'-':>8}" + ("" if v == "a" else f" {'-':>6}")
            continue
        m = statistics.median(d)
        line += f" {m:9.0f} {min(d):8.0f} {max(d):8.0f}"
        if v == "a":
            a = m
        else:
            line += f" {a / m:6.3f}" if a else f" {'-':>6}"
    print(line)
if metrics:
    print("metrics, median per launch (a profile of their own):")
    head = f"{'case':16} {'metric':44}" + "".join(f" {v.upper():>12}" for v in names)
    print(head + "".join(f" {v.upper() + '/A':>6}" for v in names[1:]))
    for dt, lg in cases:
        for metric in metrics.split(","):
            ms = []
            for v in names:
                x = values(v, dt, lg, metric, "metrics")
                ms.append(statistics.median(x) if x else None)
            line = f"{dt + ' 2^' + lg:16} {metric:44}"
            line += "".join(f" {m:12.0f}" if m is not None else f" {'-':>12}" for m in ms)
            a = ms[0]
            line += "".join(f" {m / a:6.3f}" if a and m is not None else f" {'-':>6}"
                            for m in ms[1:])
            print(line)
PY
exit $status
