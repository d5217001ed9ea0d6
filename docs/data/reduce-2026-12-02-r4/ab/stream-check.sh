#!/usr/bin/env bash
# build, the stream test, sanitizer on it, then the same test with cured's wait removed (must fail)
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build.log" 2>&1
cmake --build build -j16 --target test_gpu_reduce_stream test_gpu_reduce >> "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
./build/tests/gpu/test_gpu_reduce_stream > "$out/s1.log"; echo "stream rc $?"; cat "$out/s1.log"
./build/tests/gpu/test_gpu_reduce_stream > "$out/s2.log"; echo "stream (again) rc $?"; cat "$out/s2.log"
for tool in memcheck; do
  compute-sanitizer --tool $tool --error-exitcode 1 ./build/tests/gpu/test_gpu_reduce_stream --no-overlap > "$out/san.$tool.log" 2>&1; echo "sanitizer $tool (with spy) rc $?"; tail -4 "$out/san.$tool.log"
done
sed -i '/griddepcontrol.wait/d' src/kernels/exact/grid_dependency.cuh
grep -c griddepcontrol src/kernels/exact/grid_dependency.cuh
cmake -S . -B build-x -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build-x.log" 2>&1
cmake --build build-x -j16 --target test_gpu_reduce_stream >> "$out/build-x.log" 2>&1 || { tail -30 "$out/build-x.log"; exit 1; }
./build-x/tests/gpu/test_gpu_reduce_stream > "$out/x.log"; echo "stream without the wait rc $? (must be 1)"; grep -c FAIL "$out/x.log"; grep -i spy "$out/x.log"; tail -2 "$out/x.log"
