#!/usr/bin/env bash
# regen.sh - regenerates the fidelity set's fixtures (needs nvcc, ptxas and
# nvdisasm; no GPU).
#
#   tests/model/fidelity/regen.sh
#
# kernels.ptx    nvcc -arch=sm_90 -ptx -lineinfo kernels.cu
# kernels.sass   nvdisasm -gp -c of ptxas -arch=sm_90 -lineinfo kernels.ptx:
#                the SASS the GPU runs (scripts/gpu-fidelity.sh checks that
#                the device's ptxas makes the same) and the model counts by
#
# nvdisasm comes with the toolkit or from pip (nvidia-cuda-nvdisasm).
set -euo pipefail
cd "$(dirname "$0")"
pip_bin=$(python3 -c "import nvidia, glob; print(':'.join(glob.glob(list(nvidia.__path__)[0] + '/*/bin')))" 2>/dev/null || true)
export PATH=$PATH:/usr/local/cuda/bin:$pip_bin
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

nvcc -arch=sm_90 -ptx -lineinfo kernels.cu -o kernels.ptx
# nvcc writes the source's absolute path into .file; keep the one inside
# the repository, so the fixture names no machine's folders.
sed -i -E 's|^(\s*\.file\s+[0-9]+\s+)"[^"]*/(tests/model/fidelity/kernels\.cu)"|\1"\2"|' kernels.ptx
ptxas -arch=sm_90 -lineinfo kernels.ptx -o "$tmp/kernels.cubin"
nvdisasm -gp -c "$tmp/kernels.cubin" > kernels.sass
