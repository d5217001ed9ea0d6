#!/usr/bin/env bash
# ab-prebuild.sh - an A/B's builds made on this machine (no GPU needed) and
# packed for the GPU machine, so that a device call spends its time on the
# GPU rather than in nvcc: A (the tree as it is) and the variants, built
# as gpu-ab.sh and gpu-ncu-ab.sh build them there (ab-variants.sh).
#
#   scripts/ab-prebuild.sh [--dir DIR] [--flags "CUDA FLAGS"] [--patch FILE]...
#
#   --dir    where the pack goes (default build-ab: git ignores it; the
#            device tool's carry takes it to the GPU machine)
#   --flags, --patch  the variants, as they will be given there
#
# DIR gets builds.tar.gz (each build's cured and test_gpu_reduce, stripped,
# as NAME/build/...) and manifest (ab-variants.sh's ab_manifest: the
# tree's hash, the flags, each patch's hash; notes on lines starting with
# #). On the GPU machine, with DIR carried:
#
#   scripts/gpu-ncu-ab.sh --prebuilt build-ab --patch P ... -- CASES
#   scripts/gpu-ab.sh --prebuilt build-ab --patch P ...
#
# which refuse a pack that is not of the tree and the variants they are
# given. The copies and builds go to ${AB_DIR:-/tmp/cured-ab-prebuild}
# (A too: build/ is left as it is), logs to ${OUT:-out}/ab-prebuild/.
# Exits 1 when a copy, a patch, a build or the pack fails, 2 on bad usage.
set -uo pipefail
cd "$(dirname "$0")/.." || exit 2
# shellcheck source=scripts/ab-variants.sh
. scripts/ab-variants.sh
usage() { sed -n '7,11p' "$0" >&2; exit 2; }

flags="" pack=build-ab
patches=()
while [ $# -gt 0 ]; do
  case "$1" in
    --dir) [ $# -ge 2 ] || usage; pack=$2; shift 2 ;;
    --flags) [ $# -ge 2 ] || usage; flags=$2; shift 2 ;;
    --patch) [ $# -ge 2 ] || usage; patches+=("$2"); shift 2 ;;
    *) echo "ab-prebuild: unknown argument '$1'" >&2; usage ;;
  esac
done
ab_check_variants ab-prebuild || usage
export PATH="$PATH:/usr/local/cuda/bin"

out="${OUT:-out}/ab-prebuild"
ab_dir="${AB_DIR:-/tmp/cured-ab-prebuild}"
prebuilt="" a_copy=1
targets=(cured_cli test_gpu_reduce)
mkdir -p "$out"
t0=$SECONDS
manifest=$(ab_manifest)
ab_build_all
echo "ab-prebuild: builds done in $((SECONDS - t0)) s"
[ "$(ab_manifest)" = "$manifest" ] ||
  { echo "ab-prebuild: the tree or a patch changed during the builds: run it again" >&2; exit 1; }

# the pack: only the two programs an A/B runs, stripped (the kernels'
# fat binaries are data, which strip keeps)
stage="$ab_dir/pack"
rm -rf "$stage"
for v in "${names[@]}"; do
  built=$(ab_dir_of "$v")
  mkdir -p "$stage/$v/build/tests/gpu" &&
    strip -o "$stage/$v/build/cured" "$built/cured" &&
    strip -o "$stage/$v/build/tests/gpu/test_gpu_reduce" "$built/tests/gpu/test_gpu_reduce" ||
    { echo "ab-prebuild: cannot stage build $v" >&2; exit 1; }
done
mkdir -p "$pack" &&
  tar -czf "$pack/builds.tar.gz" -C "$stage" "${names[@]}" &&
  { echo "# scripts/ab-prebuild.sh $(date -u +%FT%TZ), $(nvcc --version | tail -1)"
    echo "# builds: ${names[*]}${flags:+; flags: $flags}"
    for p in "${patches[@]}"; do echo "# patch: $p"; done
    echo "$manifest"
  } > "$pack/manifest" ||
  { echo "ab-prebuild: cannot write the pack in $pack" >&2; exit 1; }
echo "ab-prebuild: $pack/builds.tar.gz ($(du -k "$pack/builds.tar.gz" | cut -f1) KiB) and $pack/manifest:"
cat "$pack/manifest"
