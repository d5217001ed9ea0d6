#!/usr/bin/env bash
# gpu-model-check.sh - the model's counters against Nsight Compute's, on the
# GPU machine, for every catalogue kernel at two sizes.
#
#   scripts/gpu-model-check.sh        from the repo root, after a build in
#                                     ${CURED_BUILD:-build}; logs in ${OUT:-out}/
#
# For each kernel and each shape (n = 64 in one block of 64 threads; n =
# 100000 in blocks of 256, a multi-block grid), ncu profiles the kernel's
# first launch through the GPU test's single-kernel mode, and `cured model`
# runs the same launch (same grid, block and n) on the CPU. The table
# compares shared load/store instructions, wavefronts and bank conflicts and
# global load/store sectors, global load requests and instructions and
# global store instructions, which must be equal, but for the one
# difference model_vs_ncu.py names as known. The SASS of every kernel goes
# to $OUT/sass.txt and is checked against the SASS the model counted by.
# Exits 1 when any compared value differs unexplained.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

build=${CURED_BUILD:-build}
out=${OUT:-out}/model-check
mkdir -p "$out"
export PATH=$PATH:/usr/local/cuda/bin
bin=$build/tests/gpu/test_gpu_catalogue
cured=$build/cured
for f in "$bin" "$cured"; do
  [ -x "$f" ] || { echo "gpu-model-check: $f not built" >&2; exit 2; }
done
command -v ncu >/dev/null || { echo "gpu-model-check: ncu not found" >&2; exit 2; }

metrics=launch__grid_size,launch__block_size
for m in smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld \
         l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld \
         l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st \
         l1tex__t_sectors_pipe_lsu_mem_global_op_ld \
         l1tex__t_sectors_pipe_lsu_mem_global_op_st \
         l1tex__t_requests_pipe_lsu_mem_global_op_ld \
         smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st; do
  metrics=$metrics,$m.sum
done

cuobjdump -sass "$bin" > "${OUT:-out}/sass.txt" 2>&1 || true
# The model counts by the SASS the build made of catalogue.ptx
# (src/model/catalogue/catalogue.sass): is it the SASS the GPU runs?
sass_status=0
if [ -f "$build/src/model/catalogue/catalogue.sass" ]; then
  python3 scripts/model_vs_ncu.py same-sass "${OUT:-out}/sass.txt" \
      "$build/src/model/catalogue/catalogue.sass" || sass_status=1
else
  echo "gpu-model-check: $build has no src/model/catalogue/catalogue.sass: the model's counts are PTX-level" >&2
fi

kernels=$("$cured" list | awk '{print $2}')
shapes=("64 64" "100000 256")
for k in $kernels; do
  for shape in "${shapes[@]}"; do
    set -- $shape
    n=$1 block=$2
    tag=$k.n$n.b$block
    ncu --clock-control none --launch-count 1 --kernel-name "regex:${k}_kernel" \
        --metrics "$metrics" --csv --page raw \
        "$bin" --kernel "$k" --n "$n" --block "$block" --dtype f32 \
        > "$out/$tag.ncu.csv" 2> "$out/$tag.ncu.err"
    grid=$(python3 scripts/model_vs_ncu.py grid "$out/$tag.ncu.csv")
    "$cured" model "$k" --dtype f32 --n "$n" --block "$block" ${grid:+--grid "$grid"} --json \
        > "$out/$tag.model.json" 2> "$out/$tag.model.err"
  done
done
python3 scripts/model_vs_ncu.py table "$out"
status=$?

# Is what ncu counts for the multi-block grid kernels' shared stores the
# same from run to run? Three more profiles of each, the store wavefronts
# and conflicts side by side.
echo
echo "run-to-run: shared store wavefronts / bank conflicts, n = 100000, block 256"
for k in shuffle shuffle_wide two_pass atomic single_pass; do
  line="$k:"
  for run in 1 2 3; do
    ncu --clock-control none --launch-count 1 --kernel-name "regex:${k}_kernel" \
        --metrics l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum \
        --csv --page raw "$bin" --kernel "$k" --n 100000 --block 256 --dtype f32 \
        > "$out/repeat.$k.$run.csv" 2>/dev/null
    line="$line $(python3 scripts/model_vs_ncu.py stores "$out/repeat.$k.$run.csv")"
  done
  echo "  $line"
done
[ "$sass_status" -eq 0 ] || status=1
exit $status
