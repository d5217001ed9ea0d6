#!/usr/bin/env bash
# call 3: A/B of work sharing (bench --api), then grid sweeps of A and B
export PATH=$PATH:/usr/local/cuda/bin
OUT=/tmp/abo timeout 420 scripts/gpu-ab.sh --patch exp/share.patch -- --dtype f32,f64,i32 --min-log2 16 --max-log2 30 > $OUT/share_ab.txt 2>&1; tail -70 $OUT/share_ab.txt
tar czf $OUT/ab.tgz -C /tmp abo
for t in build /tmp/cured-ab/build; do
  nvcc -O2 -std=c++17 -arch=sm_90 -Iinclude -Isrc/lib -Isrc/kernels/exact exp/grid_sweep.cu $t/src/lib/libcured.a -lnccl -lpthread -lcuda -o /tmp/gs || echo GS BUILD FAILED
  echo "== $t"; /tmp/gs f32 "24 26 28 29 30" "0 1584" 9
done 2>&1 | tee $OUT/gs.txt
