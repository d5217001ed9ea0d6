#!/usr/bin/env bash
# call 1: GPU tests at main, then the tail stamps
DEVICE_BUDGET_S=330 scripts/device.sh build reduce
rm -rf /tmp/s && mkdir /tmp/s && cp -r CMakeLists.txt cmake include src tests scripts examples docs /tmp/s/ && patch -s -d /tmp/s -p1 < exp/stamps.patch && cmake -S /tmp/s -B /tmp/s/build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF -DCMAKE_CUDA_FLAGS=-DCURED_REDUCE_STAMPS=1 > /dev/null && cmake --build /tmp/s/build -j16 --target cured_stamps > /dev/null || echo STAMPS BUILD FAILED
{ for lg in 16 24 28 30; do echo "== f32 2^$lg"; /tmp/s/build/tests/gpu/cured_stamps f32 $lg; done
  for lg in 28 30; do echo "== f64 2^$lg"; /tmp/s/build/tests/gpu/cured_stamps f64 $lg; done; } 2>&1 | tee $OUT/stamps.txt
