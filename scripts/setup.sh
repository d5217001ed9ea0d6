#!/usr/bin/env bash
# setup.sh - installs what cured needs on a fresh Debian machine of this kind,
# then configures and builds it in build/.
#
#   scripts/setup.sh            (root or sudo; idempotent)
#   scripts/setup.sh DIR [CMAKE_ARGS...]
#                               the same in DIR, configured with CMAKE_ARGS too
#                               (scripts/test-sanitizers.sh: build-asan/)
#
# Debian packages: cmake (>= 3.24), a C compiler, pkg-config, cmocka, clang
# with its sanitizer runtimes (the parser's libFuzzer target), python3 and
# pip (nvdisasm below), chromium (the test that opens `cured animate --html`
# in a real browser; it skips itself where chromium cannot run); with
# CURED_SETUP_MPI=1 also OpenMPI (examples/mpi_sum.c).
# The CUDA toolkit (nvcc) is expected in /usr/local/cuda; without it the CPU
# parts still build and configure says what it skipped.
set -euo pipefail
cd "$(dirname "$0")/.."

packages=(cmake make gcc g++ pkg-config libcmocka-dev clang libclang-rt-14-dev python3 python3-pip
          chromium)
# OpenMPI only on request (CURED_SETUP_MPI=1): examples/mpi_sum.c is built
# where MPI is found, and runs only on GPU machines.
if [ "${CURED_SETUP_MPI:-0}" = 1 ]; then
  packages+=(openmpi-bin libopenmpi-dev)
fi
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${missing[*]}" >&2
  sudo=""; [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi

# nvdisasm, for the model's SASS (src/model/sass.h): the toolkit's when it
# has one, else NVIDIA's wheel for the python3 on PATH (the build finds it
# under site-packages/nvidia/*/bin).
if ! command -v nvdisasm >/dev/null && [ ! -x /usr/local/cuda/bin/nvdisasm ] &&
   ! python3 -c "import nvidia, glob, sys; sys.exit(not glob.glob(list(nvidia.__path__)[0] + '/*/bin/nvdisasm'))" 2>/dev/null; then
  echo "setup: installing nvidia-cuda-nvdisasm (pip)" >&2
  python3 -m pip install -q nvidia-cuda-nvdisasm >&2 2>/dev/null ||
    python3 -m pip install -q --break-system-packages nvidia-cuda-nvdisasm >&2 ||
    echo "setup: no nvdisasm: the model's catalogue counts stay PTX-level" >&2
fi

# nvcc lives outside PATH on some machines of this kind.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
  export PATH=/usr/local/cuda/bin:$PATH
fi

build_dir=${1:-build}
shift $(( $# > 0 ? 1 : 0 ))
cmake -S . -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo ${CURED_CMAKE_ARGS:-} "$@" >&2
cmake --build "$build_dir" -j "$(nproc)" >&2
