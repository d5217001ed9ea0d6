#!/usr/bin/env bash
# stamps on main + exp/stamps3.patch: one-block and cluster tails
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
d=/tmp/cured-stamps; rm -rf $d; mkdir -p $d
cp -r CMakeLists.txt cmake include src tests scripts examples docs $d/
patch -d $d -p1 < exp/stamps3.patch > /dev/null || { echo patch failed; exit 1; }
cmake -S $d -B $d/build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DCURED_REDUCE_STAMPS=1 > $out/stamps-build.log 2>&1 &&
  cmake --build $d/build -j16 --target cured_stamps >> $out/stamps-build.log 2>&1 || { tail -20 $out/stamps-build.log; exit 1; }
for spec in "f32 20" "f32 24" "f32 18" "f32 22" "f64 20" "f32 12"; do
  for rep in 1 2; do
    $d/build/tests/gpu/cured_stamps $spec 20
  done
done 2>&1 | tee $out/stamps.txt
