#!/usr/bin/env bash
# A/B on one device: build/ = the checkout as is, build-c = the same with one -D switch (CURED_REDUCE_ROLLING=0 for the rolling-loads A/B, CURED_REDUCE_DEPENDENT_LAUNCH=0 for the PDL one); alternate benches.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
t0=$SECONDS
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build-a.log" 2>&1
cmake --build build -j16 --target cured_cli test_gpu_reduce >> "$out/build-a.log" 2>&1 || { tail -30 "$out/build-a.log"; exit 1; }
cmake -S . -B build-c -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DCURED_REDUCE_DEPENDENT_LAUNCH=0 > "$out/build-c.log" 2>&1
cmake --build build-c -j16 --target cured_cli >> "$out/build-c.log" 2>&1 || { tail -30 "$out/build-c.log"; exit 1; }
echo "builds done in $((SECONDS-t0)) s"
./build/tests/gpu/test_gpu_reduce > "$out/test-a.log" 2>&1; echo "test_gpu_reduce (pdl) rc $?"; tail -3 "$out/test-a.log"
for r in 1 2 3; do
  for v in a c; do
    b=build; [ $v = c ] && b=build-c
    ./$b/cured bench --api --dtype f32,f64,f16 --min-log2 10 --max-log2 28 --csv="$out/$v$r.csv" > /dev/null 2> "$out/$v$r.err" || echo "bench $v$r rc $?"
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
        if row.get('job') in ('cured','cub'):
            d[(row['dtype'],row['mode'],int(row['log2n']),row['job'],v)].append(float(row['median_us']))
keys=sorted({(k[0],k[1],k[2]) for k in d})
print("dtype mode log2n  pdl      plain-launch  r/c    cub(a)  cub(c)")
for dt,m,l in keys:
    g=lambda j,v: statistics.median(d[(dt,m,l,j,v)]) if d[(dt,m,l,j,v)] else float('nan')
    a,c=g('cured','a'),g('cured','c')
    print(f"{dt:5} {m:5} {l:5} {a:8.2f} {c:8.2f} {a/c:6.3f} {g('cub','a'):7.2f} {g('cub','c'):7.2f}")
PY
