#!/usr/bin/env bash
# gpu-fidelity.sh - Nsight Compute's truth for the model and the model
# against it, on the GPU machine: the catalogue (every kernel, f32, at n = 64
# in one block of 64 and at n = 100000 in blocks of 256) and the fidelity
# set (tests/model/fidelity: kernels.cu, cases.txt).
#
#   scripts/gpu-fidelity.sh        from the repo root, after a build in
#                                  ${CURED_BUILD:-build}; results in ${OUT:-out}/
#
# 1. ptxas compiles the committed kernels.ptx (-arch=sm_90 -lineinfo) and
#    nvdisasm prints it: is that SASS (instruction by instruction) the
#    committed kernels.sass the model counts by? The catalogue runs the
#    build's own catalogue.cubin, whose SASS the model embeds.
# 2. Every case runs on the GPU through tests/gpu/launch_ptx --cases, all in
#    one process, under ncu with every metric the model names that this ncu
#    knows and the per-opcode counts (sass__inst_executed_per_opcode: BAR,
#    SHFL, VOTE ...), twice (run-to-run variation shows): one report per
#    run, exported as CSV (--page raw) and, per opcode, through ncu's Python
#    report interface. model_vs_ncu.py split cuts them into one CSV per case
#    (ncu's raw layout, both runs) and ncu.csv (case,run,metric,value: the
#    layout of docs/data/fidelity-*/ncu.csv).
# 3. `cured model ... --compare-ncu CASE.csv --json` for every case: the
#    model against ncu, each difference with its known reason or not.
# 4. The fidelity set's buffers that do not depend on thread order (after
#    `|` in cases.txt) are printed by the GPU and by `cured model`, and
#    must be equal.
# Last, a table: per metric class the values equal, known and different.
# Writes ${OUT}/fidelity.tar.gz (ncu's reports and CSVs, the per-case CSVs,
# the comparisons, ncu.csv, the SASS) and ${OUT}/fidelity.txt (the log, the
# table last). The recorded data go to docs/data/fidelity-DATE/ (ncu.csv,
# fidelity.txt; docs/data/README.md), where tests/model/fidelity reads them.
# Exit 1 when the SASS differs, a buffer differs or a value differs
# without a known reason; 2 when a tool is missing.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2

build=${CURED_BUILD:-build}
out=${OUT:-out}
work=$out/fidelity
rm -rf "$work"
mkdir -p "$work/cases" "$work/model"
export PATH=$PATH:/usr/local/cuda/bin
dir=tests/model/fidelity
launch=$build/tests/gpu/launch_ptx
cured=$build/cured
catcubin=$build/src/model/catalogue/catalogue.cubin
for f in "$launch" "$cured" "$catcubin"; do
  [ -e "$f" ] || { echo "gpu-fidelity: $f not built" >&2; exit 2; }
done
for t in ncu ptxas nvdisasm python3; do
  command -v "$t" >/dev/null || { echo "gpu-fidelity: $t not found" >&2; exit 2; }
done
status=0
log=$out/fidelity.txt
: > "$log"
say() { echo "$*" | tee -a "$log"; }

# -- 1. the SASS ---------------------------------------------------------------
ptxas -arch=sm_90 -lineinfo "$dir/kernels.ptx" -o "$work/kernels.cubin" || exit 2
nvdisasm -gp -c "$work/kernels.cubin" > "$work/kernels.sass" || exit 2
if python3 scripts/model_vs_ncu.py same-sass "$work/kernels.sass" "$dir/kernels.sass" \
     >> "$log" 2>&1; then
  say "sass: the committed kernels.sass is what this ptxas makes"
else
  say "sass: DIFFERENT from the committed kernels.sass (regen.sh)"
  status=1
fi
cp "$build/src/model/catalogue/catalogue.sass" "$work/catalogue.sass" 2>/dev/null

# -- 2. the cases and ncu ------------------------------------------------------
# One line per case: NAME, the model's command (after `cured model`), and
# launch_ptx's options; cases.lines is the part launch_ptx reads.
cases=$work/cases.lines
model_cmds=$work/model.cmds
: > "$cases"
: > "$model_cmds"
for k in $("$cured" list --json |
           python3 -c 'import json, sys; print(" ".join(k["name"] for k in json.load(sys.stdin)))'); do
  for shape in "64 64" "100000 256"; do
    set -- $shape
    name=cat.$k.n$1.b$2
    echo "$name --catalogue $k --n $1 --block $2 --cubin $catcubin" >> "$cases"
    echo "$name $k --dtype f32 --n $1 --block $2" >> "$model_cmds"
  done
done
while read -r name entry rest; do
  case "$name" in ''|'#'*) continue ;; esac
  opts=${rest%%|*}
  echo "fid.$name --ptx $dir/kernels.ptx --cubin $work/kernels.cubin --entry $entry $opts" >> "$cases"
  echo "fid.$name --ptx $dir/kernels.ptx --sass $dir/kernels.sass --entry $entry $opts" >> "$model_cmds"
done < "$dir/cases.txt"
ncases=$(wc -l < "$cases")

# The metrics the model reads (cured model --ncu-metrics: its counters'
# own table) and a few that tell its counts apart (generic and local
# accesses, the sass_ flavours), kept when this ncu knows them.
wanted="$("$cured" model --ncu-metrics | tr ',' '\n' | grep -v '^sass__' | sed 's/\.sum$//')
smsp__inst_executed_op_global_atom smsp__inst_executed_op_generic_ld smsp__inst_executed_op_generic_st
smsp__inst_executed_op_ldsm
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
say "ncu: $(ncu --version | tail -1)"
say "metrics not known to this ncu:${missing:- none}"
# Options this ncu may not have: mangled kernel names (the model's entry
# names), base units (no Kinst); the per-opcode metric comes from another
# provider than --query-metrics lists, so a one-case profile tries it.
ncu --help > "$work/ncu-help.txt" 2>&1
print_opts=()
grep -q -- "--print-kernel-base" "$work/ncu-help.txt" && print_opts+=(--print-kernel-base mangled)
grep -q -- "--print-units" "$work/ncu-help.txt" && print_opts+=(--print-units base)
head -1 "$cases" > "$work/probe.lines"
if ncu --clock-control none --metrics sass__inst_executed_per_opcode \
       -o "$work/probe" -f "$launch" --cases "$work/probe.lines" > "$work/probe.log" 2>&1; then
  metrics=$metrics,sass__inst_executed_per_opcode
  say "per-opcode counts: sass__inst_executed_per_opcode"
else
  say "per-opcode counts: not available ($(grep -m1 -i error "$work/probe.log"))"
fi
# Nsight Compute's Python report interface, for the opcode instances.
ncu_bin=$(readlink -f "$(command -v ncu)")
pyreport=""
for d in "$(dirname "$ncu_bin")/extras/python" "$(dirname "$ncu_bin")/../extras/python" \
         /usr/local/cuda/nsight-compute-*/extras/python /opt/nvidia/nsight-compute/*/extras/python; do
  [ -f "$d/ncu_report.py" ] && { pyreport=$d; break; }
done
say "ncu_report: ${pyreport:-not found (no per-opcode values)}"

opcode_files=()
runs=()
for run in 1 2; do
  t0=$SECONDS
  ncu --clock-control none --metrics "$metrics" -o "$work/run$run" -f \
      "$launch" --cases "$cases" > "$work/run$run.log" 2>&1 ||
    { say "ncu run $run: exit $? ($(grep -m1 -i error "$work/run$run.log"))"; status=1; }
  ncu --import "$work/run$run.ncu-rep" --csv --page raw "${print_opts[@]}" \
      > "$work/run$run.csv" 2> "$work/run$run.import.err" ||
    ncu --import "$work/run$run.ncu-rep" --csv --page raw \
      > "$work/run$run.csv" 2>> "$work/run$run.import.err" ||
    { say "ncu --import run $run failed: $(head -1 "$work/run$run.import.err")"; status=1; }
  ncu --import "$work/run$run.ncu-rep" --csv --page raw --print-metric-instances details \
      "${print_opts[@]}" > "$work/run$run.instances.csv" 2>/dev/null
  if [ -n "$pyreport" ]; then
    PYTHONPATH=$pyreport python3 scripts/model_vs_ncu.py opcodes "$work/run$run.ncu-rep" \
      > "$work/run$run.opcodes.csv" 2> "$work/run$run.opcodes.err" ||
      say "opcodes run $run: $(tail -1 "$work/run$run.opcodes.err")"
    opcode_files+=("$work/run$run.opcodes.csv")
  fi
  runs+=("$work/run$run.csv")
  say "ncu run $run: $ncases cases in $((SECONDS - t0)) s"
done
python3 scripts/model_vs_ncu.py split "$cases" "${runs[@]}" \
  ${opcode_files[@]:+--opcodes "${opcode_files[@]}"} --logs "$work/run1.log" "$work/run2.log" \
  "$work/cases" | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
cp "$work/cases/ncu.csv" "$work/ncu.csv" 2>/dev/null

# -- 3. the model against ncu --------------------------------------------------
while read -r name cmd; do
  # shellcheck disable=SC2086
  "$cured" model $cmd --compare-ncu "$work/cases/$name.csv" --json \
    > "$work/model/$name.json" 2> "$work/model/$name.err"
  rc=$?
  [ "$rc" -le 1 ] || say "$name: cured model exit $rc: $(head -1 "$work/model/$name.err")"
done < "$model_cmds"

# -- 4. the buffers ------------------------------------------------------------
: > "$work/print.lines"
while read -r name entry rest; do
  case "$name" in ''|'#'*) continue ;; esac
  case "$rest" in *"|"*) ;; *) continue ;; esac
  prints=""
  for b in ${rest#*|}; do prints="$prints --print $b"; done
  opts=${rest%%|*}
  echo "fid.$name --ptx $dir/kernels.ptx --cubin $work/kernels.cubin --entry $entry $opts $prints" >> "$work/print.lines"
done < "$dir/cases.txt"
"$launch" --cases "$work/print.lines" > "$work/gpu-buffers.txt" 2>&1
while read -r name _ _ _ _ _ entry rest; do
  case=${name#fid.}
  line=$(grep "^$case " "$dir/cases.txt")
  opts=${line#* * }; opts=${opts%%|*}
  prints=""
  for b in ${line#*|}; do prints="$prints --print $b"; done
  # shellcheck disable=SC2086
  model=$("$cured" model --ptx "$dir/kernels.ptx" --entry "$entry" $opts $prints 2>&1 |
          grep -E '^[A-Za-z_0-9]+ [a-z0-9]+\[[0-9]+\] =')
  gpu=$(awk -v n="== $name" '$0 == n {on = 1; next} /^== / {on = 0} on' "$work/gpu-buffers.txt" |
        grep -E '^[A-Za-z_0-9]+ [a-z0-9]+\[[0-9]+\] =')
  if [ -n "$gpu" ] && [ "$gpu" = "$model" ]; then
    echo "$case: buffers equal (GPU and model)" >> "$log"
  else
    say "$case: buffers DIFFER: GPU '$gpu' model '$model'"
    status=1
  fi
done < "$work/print.lines"

# -- the table -----------------------------------------------------------------
say ""
say "gpu-fidelity: $ncases cases (catalogue and fidelity set), two ncu runs each"
python3 scripts/model_vs_ncu.py summary "$work/model" | tee -a "$log"
[ "${PIPESTATUS[0]}" -eq 0 ] || status=1
rm -f "$work/probe.ncu-rep"
cp "$log" "$work/fidelity.txt"
tar -C "$work" -czf "$out/fidelity.tar.gz" . && rm -rf "$work"
exit $status
