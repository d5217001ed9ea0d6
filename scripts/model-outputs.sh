#!/usr/bin/env bash
# model-outputs.sh - writes what `cured model` prints for a fixed set of
# runs (every catalogue kernel's --json counters, one launch and the whole
# plan, and the lesson table), one file per run, so two builds can be
# compared byte for byte with `diff -r`.
#
#   scripts/model-outputs.sh CURED_BINARY OUTDIR
#   scripts/model-outputs.sh build/cured /tmp/after && diff -r /tmp/before /tmp/after
#
# Used to show that a change that should not change the model's results
# (a move of files, a rename) did not. The table of the four lesson versions
# is asked for under its current option name, whichever the binary knows.
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: scripts/model-outputs.sh CURED_BINARY OUTDIR" >&2
  exit 2
fi
cured=$1 out=$2
[ -x "$cured" ] || { echo "model-outputs.sh: $cured is not an executable" >&2; exit 2; }
mkdir -p "$out"

kernels=$("$cured" list --json | sed -n 's/.*"name": "\([a-z_]*\)".*/\1/p')
[ -n "$kernels" ] || { echo "model-outputs.sh: '$cured list --json' named no kernels" >&2; exit 2; }

run() {  # run FILE ARGS...: the output and the exit status of one run
  local file=$1; shift
  local rc=0
  "$cured" model "$@" >"$out/$file" 2>/dev/null || rc=$?
  echo "exit $rc" >>"$out/$file"
}

for k in $kernels; do
  run "$k.json" "$k" --json
  run "$k.n100000.i32.json" "$k" --n 100000 --dtype i32 --json
  run "$k.plan.json" "$k" --n 100000 --whole-plan --json
done
if "$cured" model --help 2>&1 | grep -q -- --lesson-table; then
  table=--lesson-table
else
  table=--seed-table   # before the rename to --lesson-table
fi
run "table.json" $table --json
run "table.txt" $table
echo "model-outputs.sh: $(ls "$out" | wc -l) runs in $out" >&2
