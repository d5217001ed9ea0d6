#!/usr/bin/env bash
# Nsight Compute on cold one-block launches: cured's exact sum and CUB's single-tile kernel, caches flushed by ncu.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
[ -x build/cured ] || { cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build.log" 2>&1; cmake --build build -j16 --target cured_cli >> "$out/build.log" 2>&1; }
for spec in f64:11 f32:12 f16:13; do
  dt=${spec%:*}; lg=${spec#*:}
  for k in "cured:exact_sum_kernel" "cub:SingleTile" "empty:empty_kernel"; do
    name=${k%%:*}; re=${k#*:}
    ncu --clock-control none --cache-control all --kernel-name "regex:$re" --launch-skip 3 --launch-count 1 \
      --section SpeedOfLight --section WarpStateStats --section SourceCounters --section LaunchStats --section InstructionStats \
      build/cured bench --api --dtype $dt --min-log2 $lg --max-log2 $lg --runs 5 --target-ms 1 > "$out/$name-$dt-$lg.txt" 2>&1
    echo "== $name $dt 2^$lg"; grep -E "^ +(Duration|Elapsed Cycles|SM Frequency|Executed Instructions |Registers Per|Static Shared|Dynamic Shared|Shared Memory Configuration Size|Warp Cycles Per Issued)" "$out/$name-$dt-$lg.txt" | sed 's/  */ /g'
  done
done
cd "$out" && tar czf ncu-cold.tar.gz *.txt && rm -f *.txt
