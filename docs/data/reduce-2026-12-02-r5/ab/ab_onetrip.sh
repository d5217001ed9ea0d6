#!/usr/bin/env bash
# A/B: build = the tree, build-c = -DEXP_ONE_TRIP (one-trip exact kernels where one trip covers n); alternate benches.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
t0=$SECONDS
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build-a.log" 2>&1
cmake --build build -j16 --target cured_cli >> "$out/build-a.log" 2>&1 || { tail -30 "$out/build-a.log"; exit 1; }
cmake -S . -B build-c -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DEXP_ONE_TRIP > "$out/build-c.log" 2>&1
cmake --build build-c -j16 --target cured_cli >> "$out/build-c.log" 2>&1 || { tail -30 "$out/build-c.log"; exit 1; }
echo "builds done in $((SECONDS-t0)) s"
for r in 1 2; do
  for v in a c; do
    b=build; [ $v = c ] && b=build-c
    ./$b/cured bench --api --dtype ${DTYPES:-f64,f16,i32} --min-log2 ${LMIN:-10} --max-log2 ${LMAX:-20} --runs ${RUNS:-20} --csv="$out/$v$r.csv" > /dev/null 2> "$out/$v$r.err" || { echo "bench $v$r rc $?"; tail -3 "$out/$v$r.err"; }
  done
done
echo "benches done in $((SECONDS-t0)) s"
python3 - "$out" <<'PY'
import csv,sys,glob,statistics,collections
out=sys.argv[1]
d=collections.defaultdict(list)
for f in sorted(glob.glob(out+'/[ac][0-9].csv')):
    v=f.split('/')[-1][0]
    for row in csv.DictReader(open(f)):
        if row.get('job') in ('cured','cub','read'):
            d[(row['dtype'],row['mode'],int(row['log2n']),row['job'],v)].append(float(row['median_us']))
keys=sorted({(k[0],k[1],k[2]) for k in d})
print("dtype mode log2n  a(4)     c(N)     a/c    cub(a)  cub(c)  read(a)")
for dt,m,l in keys:
    g=lambda j,v: statistics.median(d[(dt,m,l,j,v)]) if d[(dt,m,l,j,v)] else float('nan')
    a,c=g('cured','a'),g('cured','c')
    print(f"{dt:5} {m:5} {l:5} {a:8.2f} {c:8.2f} {a/c:6.3f} {g('cub','a'):7.2f} {g('cub','c'):7.2f} {g('read','a'):7.2f}")
PY
