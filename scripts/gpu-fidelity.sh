#!/usr/bin/env bash
# gpu-fidelity.sh - Nsight Compute's truth for the model's fidelity set
# (tests/model/fidelity: kernels.cu, cases.txt), on the GPU machine.
#
#   scripts/gpu-fidelity.sh        from the repo root, after a build in
#                                  ${CURED_BUILD:-build}; results in ${OUT:-out}/
#
# 1. ptxas compiles the committed kernels.ptx (-arch=sm_90 -lineinfo) and
#    nvdisasm prints it: is that SASS (instruction by instruction) the
#    committed kernels.sass the model counts by?
# 2. Every case runs on the GPU through tests/gpu/launch_ptx (the same
#    launch and inputs the model runs), under ncu with every metric the
#    model names that this ncu knows (twice: run-to-run variation shows),
#    one CSV per case and run: fidelity/CASE.run1.csv, .run2.csv.
# 3. The buffers cases.txt lists after `|` are printed by the GPU and by
#    `cured model`, and must be equal.
# Writes ${OUT}/fidelity.tar.gz (every CSV, the SASS, the metric list) and
# ${OUT}/fidelity.txt (the log). Exit 1 when the SASS differs or a buffer
# differs, 2 when a tool is missing.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

build=${CURED_BUILD:-build}
out=${OUT:-out}
work=$out/fidelity
mkdir -p "$work"
export PATH=$PATH:/usr/local/cuda/bin
dir=tests/model/fidelity
launch=$build/tests/gpu/launch_ptx
cured=$build/cured
for f in "$launch" "$cured"; do
  [ -x "$f" ] || { echo "gpu-fidelity: $f not built" >&2; exit 2; }
done
for t in ncu ptxas nvdisasm; do
  command -v "$t" >/dev/null || { echo "gpu-fidelity: $t not found" >&2; exit 2; }
done
status=0
log=$out/fidelity.txt
: > "$log"

# -- 1. the SASS ---------------------------------------------------------------
ptxas -arch=sm_90 -lineinfo "$dir/kernels.ptx" -o "$work/kernels.cubin" || exit 2
nvdisasm -gp -c "$work/kernels.cubin" > "$work/kernels.sass" || exit 2
# per kernel, every instruction's guard and mnemonic (label names may differ
# between nvdisasm versions)
if python3 scripts/model_vs_ncu.py same-sass "$work/kernels.sass" "$dir/kernels.sass" \
     >> "$log" 2>&1; then
  echo "sass: the committed kernels.sass is what this ptxas makes" | tee -a "$log"
else
  echo "sass: DIFFERENT from the committed kernels.sass (regen.sh)" | tee -a "$log"
  status=1
fi

# -- 2. ncu ---------------------------------------------------------------------
# The metrics the model names (and those issue-level work will need), kept
# when this ncu knows them.
wanted="smsp__inst_executed smsp__thread_inst_executed smsp__thread_inst_executed_pred_on
smsp__inst_executed_op_shared_ld smsp__inst_executed_op_shared_st smsp__inst_executed_op_shared_atom
smsp__inst_executed_op_global_ld smsp__inst_executed_op_global_st
smsp__inst_executed_op_global_atom smsp__inst_executed_op_global_red
smsp__inst_executed_op_local_ld smsp__inst_executed_op_local_st
smsp__inst_executed_op_generic_ld smsp__inst_executed_op_generic_st smsp__inst_executed_op_generic_atom
smsp__inst_executed_op_branch smsp__inst_executed_op_ldsm
smsp__sass_branch_targets smsp__sass_branch_targets_threads_divergent smsp__sass_branch_targets_threads_uniform
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st
l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom
l1tex__t_requests_pipe_lsu_mem_global_op_ld l1tex__t_requests_pipe_lsu_mem_global_op_st
l1tex__t_requests_pipe_lsu_mem_global_op_atom l1tex__t_requests_pipe_lsu_mem_global_op_red
l1tex__t_sectors_pipe_lsu_mem_global_op_ld l1tex__t_sectors_pipe_lsu_mem_global_op_st
l1tex__t_sectors_pipe_lsu_mem_global_op_atom l1tex__t_sectors_pipe_lsu_mem_global_op_red
l1tex__t_requests_pipe_lsu_mem_local_op_ld l1tex__t_requests_pipe_lsu_mem_local_op_st
l1tex__t_sectors_pipe_lsu_mem_local_op_ld l1tex__t_sectors_pipe_lsu_mem_local_op_st
smsp__sass_inst_executed_op_shared_ld smsp__sass_inst_executed_op_shared_st
smsp__sass_inst_executed_op_global_ld smsp__sass_inst_executed_op_global_st
smsp__sass_inst_executed_op_branch smsp__sass_thread_inst_executed"
ncu --query-metrics > "$work/metrics-available.txt" 2>&1
metrics=launch__grid_size,launch__block_size
missing=""
for m in $wanted; do
  if grep -q "^$m " "$work/metrics-available.txt"; then
    metrics=$metrics,$m.sum
  else
    missing="$missing $m"
  fi
done
grep -q "^sass__inst_executed_per_opcode " "$work/metrics-available.txt" &&
  metrics=$metrics,sass__inst_executed_per_opcode
echo "ncu: $(ncu --version | tail -1)" | tee -a "$log"
echo "metrics not known to this ncu:${missing:- none}" | tee -a "$log"

cases=0
while read -r name entry rest; do
  case "$name" in ''|'#'*) continue ;; esac
  opts=${rest%%|*}
  prints=""
  case "$rest" in *"|"*) for b in ${rest#*|}; do prints="$prints --print $b"; done ;; esac
  cases=$((cases + 1))
  for run in 1 2; do
    # shellcheck disable=SC2086
    ncu --clock-control none --launch-count 1 --metrics "$metrics" \
        --print-metric-instances values --csv --page raw \
        "$launch" --ptx "$dir/kernels.ptx" --cubin "$work/kernels.cubin" \
        --entry "$entry" $opts > "$work/$name.run$run.csv" 2> "$work/$name.run$run.err" ||
      { echo "$name: ncu run $run failed: $(tail -1 "$work/$name.run$run.err")" | tee -a "$log"; status=1; }
  done
  if [ -n "$prints" ]; then
    # shellcheck disable=SC2086
    gpu=$("$launch" --ptx "$dir/kernels.ptx" --cubin "$work/kernels.cubin" \
          --entry "$entry" $opts $prints 2>&1)
    # shellcheck disable=SC2086
    model=$("$cured" model --ptx "$dir/kernels.ptx" --entry "$entry" $opts $prints 2>&1 |
            grep -E '^[A-Za-z_0-9]+ [a-z0-9]+\[[0-9]+\] =')
    if [ "$gpu" = "$model" ]; then
      echo "$name: buffers equal (GPU and model)" >> "$log"
    else
      echo "$name: buffers DIFFER: GPU '$gpu' model '$model'" | tee -a "$log"
      status=1
    fi
  fi
done < "$dir/cases.txt"
echo "gpu-fidelity: $cases cases profiled (two runs each)" | tee -a "$log"
tar -C "$work" -czf "$out/fidelity.tar.gz" . && rm -rf "$work"
exit $status
