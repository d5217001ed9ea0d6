#!/usr/bin/env bash
# ncu A/B: kernel durations (gpu__time_duration) of cured's exact sum kernel,
# main (build/) against main + exp/cluster.patch, host launch noise excluded.
set -uo pipefail
out=${OUT:-out}; mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build-a.log" 2>&1
cmake --build build -j16 --target cured_cli >> "$out/build-a.log" 2>&1 || { tail "$out/build-a.log"; exit 1; }
d=/tmp/cured-b; rm -rf $d; mkdir -p $d
cp -r CMakeLists.txt cmake include src tests scripts examples docs $d/
patch -d $d -p1 < exp/cluster.patch > /dev/null || exit 1
cmake -S $d -B $d/build -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF > "$out/build-b.log" 2>&1
cmake --build $d/build -j16 --target cured_cli >> "$out/build-b.log" 2>&1 || { tail "$out/build-b.log"; exit 1; }
echo "builds done $SECONDS s"
run() { # variant-binary dtype log2 cache -> median us of 15 launches
  ncu --clock-control none --cache-control "$4" --kernel-name regex:exact_sum --launch-skip 20 --launch-count 15 \
    --metrics gpu__time_duration.sum --csv "$1" bench --api --dtype "$2" --min-log2 "$3" --max-log2 "$3" --runs 5 --target-ms 1 2>/dev/null |
    grep gpu__time_duration | awk -F'","' '{gsub(/[",]/,"",$NF); print $NF}' | sort -n | awk '{v[NR]=$1} END{print v[int((NR+1)/2)], v[1], v[NR]}'
}
printf "%-4s %5s %5s | %-22s | %-22s\n" dt lg cache "A med min max" "B med min max"
for cache in none; do
  for spec in f32:13 f32:14 f32:16 f64:14 f16:15 f32:18; do
    dt=${spec%:*}; lg=${spec#*:}
    for rep in 1 2; do
      a=$(run build/cured $dt $lg $cache); b=$(run $d/build/cured $dt $lg $cache)
      printf "%-4s %5s %5s | %-22s | %-22s\n" $dt $lg $cache "$a" "$b"
    done
  done
done | tee "$out/ncu-ab.txt"
echo "done $SECONDS s"
