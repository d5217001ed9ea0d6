#!/usr/bin/env bash
# fidelity_outputs.sh - the fidelity set's deterministic buffers, GPU against
# model: each case of cases.txt with buffers after `|` runs on the GPU
# (launch_ptx, from a cubin ptxas makes of kernels.ptx) and in the model
# (cured model --ptx kernels.ptx), and the printed buffers must be equal.
#
#   fidelity_outputs.sh LAUNCH_PTX CURED FIDELITY_DIR
#
# Exit 0 when every case agrees, 1 when one differs, 77 without a GPU (or
# without ptxas), 2 for bad usage.
set -uo pipefail
[ $# -eq 3 ] || { echo "usage: fidelity_outputs.sh LAUNCH_PTX CURED DIR" >&2; exit 2; }
launch=$1 cured=$2 dir=$3
export PATH=$PATH:/usr/local/cuda/bin
command -v ptxas >/dev/null || { echo "fidelity_outputs: no ptxas: skipped" >&2; exit 77; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
ptxas -arch=sm_90 -lineinfo "$dir/kernels.ptx" -o "$tmp/kernels.cubin" || exit 1
status=0 checked=0
while read -r name entry rest; do
  case "$name" in ''|'#'*) continue ;; esac
  case "$rest" in *"|"*) ;; *) continue ;; esac
  opts=${rest%%|*} prints=""
  for b in ${rest#*|}; do prints="$prints --print $b:all"; done
  # shellcheck disable=SC2086
  gpu=$("$launch" --ptx "$dir/kernels.ptx" --cubin "$tmp/kernels.cubin" \
        --entry "$entry" $opts $prints 2>"$tmp/err")
  rc=$?
  [ $rc -eq 77 ] && { cat "$tmp/err" >&2; exit 77; }
  # shellcheck disable=SC2086
  model=$("$cured" model --ptx "$dir/kernels.ptx" --entry "$entry" $opts $prints 2>&1 |
          grep -E '^[A-Za-z_0-9]+ [a-z0-9]+\[[0-9]+\] =')
  checked=$((checked + 1))
  if [ $rc -ne 0 ] || [ "$gpu" != "$model" ]; then
    echo "$name: GPU and model differ (launch_ptx exit $rc: $(cat "$tmp/err"))"
    echo "  gpu:   ${gpu:0:300}"
    echo "  model: ${model:0:300}"
    status=1
  fi
done < "$dir/cases.txt"
echo "fidelity_outputs: $checked cases, $([ $status -eq 0 ] && echo all equal || echo some differ)"
exit $status
