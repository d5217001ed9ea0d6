#!/usr/bin/env bash
# gpu-ab.sh - an A/B of cured_reduce on one GPU machine in one call: build A
# (the tree as it is) and one or more variants (the same tree with extra
# CUDA flags, or with a patch applied), then alternate `cured bench --api`
# between them, and print cured's median per row for A and each variant
# beside CUB's and the read kernel's.
#
#   scripts/gpu-ab.sh [--flags "CUDA FLAGS"] [--patch FILE]... [--rounds N]
#                     [--check] [--prebuilt DIR] [-- BENCH-API ARGS]
#
#   --flags   added to every variant's CMAKE_CUDA_FLAGS (a -D switch, e.g.
#             "-DCURED_REDUCE_DEPENDENT_LAUNCH=0")
#   --patch   a diff (git diff main...BRANCH > exp/x.patch; carry exp) that
#             a variant's copy of the tree takes with `patch -p1`; each
#             --patch is one variant: B, C, D (at most three)
#   --rounds  alternations (default 2: A B A B, or A B C A B C)
#   --check   also build test_gpu_reduce in every build and run it (forced
#             shapes, clusters included, against the CPU path's bits)
#             before any bench: a variant that fails is not timed
#   --prebuilt  the builds of scripts/ab-prebuild.sh's pack in DIR (made
#             on another machine with the same --flags/--patch, DIR
#             carried here) rather than compiled here
#   after --  `cured bench --api` arguments (default: --dtype f32,f64
#             --min-log2 10 --max-log2 30)
#
# At least one of --flags and --patch (no patch: one variant B with the
# flags). A builds in build/ (kept between device calls), variant X in
# ${AB_DIR:-/tmp/cured-ab}/X (with --prebuilt, A's unpacks there too, as
# X = a). Logs and the CSVs under ${OUT:-out}/ab/. The table: per dtype,
# mode and n, cured's median of A's rounds and of each variant's, A/X
# (above 1: X faster) and how far apart the rounds were (rng%), CUB's and
# the read kernel's in A's rounds (they show how much the machine moved).
# Exits 1 when a build, a pack, a check or a bench fails, 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/ab-variants.sh
. scripts/ab-variants.sh
usage() { sed -n '8,24p' "$0" >&2; exit 2; }

flags="" rounds=2 check=0 prebuilt=""
patches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --flags) [ $# -ge 2 ] || usage; flags=$2; shift 2 ;;
    --patch) [ $# -ge 2 ] || usage; patches+=("$2"); shift 2 ;;
    --rounds) [ $# -ge 2 ] || usage; rounds=$2; shift 2 ;;
    --check) check=1; shift ;;
    --prebuilt) [ $# -ge 2 ] || usage; prebuilt=$2; shift 2 ;;
    --) shift; break ;;
    *) echo "gpu-ab: unknown argument '$1'" >&2; usage ;;
  esac
done
bench_args=("$@")
[ ${#bench_args[@]} -eq 0 ] && bench_args=(--dtype f32,f64 --min-log2 10 --max-log2 30)
ab_check_variants gpu-ab || usage
ab_positive gpu-ab --rounds "$rounds" || exit 2

out="${OUT:-out}/ab"
check_target=()
[ "$check" = 1 ] && check_target=(test_gpu_reduce)
ab_dir="${AB_DIR:-/tmp/cured-ab}"
mkdir -p "$out"
# an earlier call's rounds (a warm machine keeps $out) must not join this table
rm -f "$out"/[a-d][0-9]*.csv "$out"/[a-d][0-9]*.log
t0=$SECONDS

# A and the variants (ab-variants.sh)
targets=(cured_cli "${check_target[@]}")
ab_build_all
echo "gpu-ab: builds ${prebuilt:+unpacked from $prebuilt, }ready in $((SECONDS - t0)) s"

# --check: each build's test_gpu_reduce (exit 77: no GPU, a skip)
if [ "$check" = 1 ]; then
  ab_run_checks gpu-ab
  echo "gpu-ab: checks done in $((SECONDS - t0)) s"
fi

status=0
for r in $(seq 1 "$rounds"); do
  for v in "${names[@]}"; do
    "$(ab_dir_of "$v")/cured" bench --api "${bench_args[@]}" --csv="$out/$v$r.csv" > "$out/$v$r.log" 2>&1 ||
      { status=1; tail -3 "$out/$v$r.log"; echo "gpu-ab: bench $v round $r failed" >&2; }
  done
done
echo "gpu-ab: benches done in $((SECONDS - t0)) s"

python3 - "$out" "${names[@]}" <<'PY'
import collections, csv, glob, statistics, sys
out, names = sys.argv[1], sys.argv[2:]
t = collections.defaultdict(list)
for f in sorted(glob.glob(out + "/[a-d][0-9]*.csv")):
    v = f.rsplit("/", 1)[1][0]
    for row in csv.DictReader(open(f)):
        if row.get("job") in ("cured", "cub", "read") and row.get("median_us"):
            t[(row["dtype"], row["mode"], int(row["log2n"]), row["job"], v)].append(float(row["median_us"]))
def med(*k):
    return statistics.median(t[k]) if t[k] else float("nan")
def spread(*k):
    # how far apart the rounds' medians are, % of their median
    v = t[k]
    return 100 * (max(v) - min(v)) / statistics.median(v) if len(v) > 1 else 0.0
head = f"{'dtype':5} {'mode':5} {'log2n':>5} {'A us':>9}"
for v in names[1:]:
    head += f" {v.upper() + ' us':>9} {'A/' + v.upper():>6} {'rng%':>5}"
print(head + f" {'CUB':>9} {'read':>9}")
for dt, m, lg in sorted({k[:3] for k in t}):
    a = med(dt, m, lg, "cured", "a")
    line = f"{dt:5} {m:5} {lg:5} {a:9.2f}"
    for v in names[1:]:
        x = med(dt, m, lg, "cured", v)
        r = max(spread(dt, m, lg, "cured", "a"), spread(dt, m, lg, "cured", v))
        line += f" {x:9.2f} {a / x:6.3f} {r:5.1f}"
    print(line + f" {med(dt, m, lg, 'cub', 'a'):9.2f} {med(dt, m, lg, 'read', 'a'):9.2f}")
print("rng%: the larger of A's and the variant's spread over their rounds "
      "(max - min of the rounds' medians, % of their median): an A/X closer "
      "to 1 than that is not a difference")
PY
exit $status
