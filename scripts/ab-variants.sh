# ab-variants.sh - the builds behind an A/B on the GPU machine, sourced by
# gpu-ab.sh, gpu-ncu-ab.sh and ab-prebuild.sh (not run on its own): A is
# the tree as it is, built in build/ (kept between device calls); each
# variant is a copy of the tree in ${ab_dir}/NAME, patched (one variant per
# --patch, letters b, c, d) or, with no patch, one variant b, built with
# the extra CUDA flags. With a pack from ab-prebuild.sh (--prebuilt DIR),
# A and the variants are that pack's builds, made on another machine,
# unpacked into ${ab_dir}/NAME/build; nothing is compiled.
#
# The sourcing script sets: out (the log folder), ab_dir, flags (extra
# CMAKE_CUDA_FLAGS for the variants, may be empty), patches (an array of
# patch files, at most three), targets (an array of the build targets),
# prebuilt (the pack's folder, empty to build here), a_copy (1: A from a
# copy of the tree, as ab-prebuild.sh wants; unset: in build/).
# ab_check_variants checks flags and patches, ab_positive a count;
# ab_build_all sets names (a, then the variants' letters) and exits 1 when
# a copy, a patch, a build or the pack fails; ab_run_checks runs each
# build's GPU test.

# ab_check_variants SCRIPT: whether the variants' options make sense
# (--flags or at least one --patch; at most three patches, each readable);
# where not, says why on stderr, as SCRIPT, and returns 1.
ab_check_variants() {
  if [ -z "$flags" ] && [ ${#patches[@]} -eq 0 ]; then
    echo "$1: give --flags or --patch (a variant must differ from A)" >&2
    return 1
  fi
  if [ ${#patches[@]} -gt 3 ]; then
    echo "$1: at most three --patch variants" >&2
    return 1
  fi
  local p
  for p in "${patches[@]}"; do
    [ -r "$p" ] || { echo "$1: cannot read the patch '$p'" >&2; return 1; }
  done
}

# ab_positive SCRIPT OPTION VALUE: whether VALUE is a positive integer;
# where not, says so on stderr, as SCRIPT, and returns 1.
ab_positive() {
  case "$3" in
    ''|*[!0-9]*|0) echo "$1: $2 takes a positive integer" >&2; return 1 ;;
  esac
}

# ab_build NAME SOURCE BINARY [CUDA FLAGS]: configures and builds cured in
# BINARY from SOURCE, the log in $out/build-NAME.log; exits 1 on failure.
ab_build() {
  local log="$out/build-$1.log"
  cmake -S "$2" -B "$3" -DCMAKE_BUILD_TYPE=Release -DCURED_UNIT_TESTS=OFF \
    ${4:+"-DCMAKE_CUDA_FLAGS=$4"} > "$log" 2>&1 &&
    cmake --build "$3" -j"$(nproc)" --target "${targets[@]}" >> "$log" 2>&1 ||
    { tail -20 "$log"; echo "ab: build $1 failed ($log)" >&2; exit 1; }
}

# ab_copy NAME [PATCH]: a copy of the tree in $ab_dir/NAME, patched;
# exits 1 when the copy or the patch fails.
ab_copy() {
  local dir="$ab_dir/$1"
  rm -rf "$dir" && mkdir -p "$dir" &&
    cp -r CMakeLists.txt README.md cmake include src tests scripts examples docs "$dir"/ ||
    { echo "ab: cannot copy the tree to $dir" >&2; exit 1; }
  if [ -n "${2:-}" ]; then
    patch --batch -d "$dir" -p1 < "$2" > "$out/patch-$1.log" 2>&1 ||
      { cat "$out/patch-$1.log"; echo "ab: the patch $2 does not apply" >&2; exit 1; }
  fi
}

# ab_variant NAME [PATCH]: ab_copy, built with the flags.
ab_variant() {
  ab_copy "$@"
  ab_build "$1" "$ab_dir/$1" "$ab_dir/$1/build" "$flags"
}

# ab_variant_names: names gets a, then the variants' letters (b, or one
# letter per patch).
ab_variant_names() {
  local letters=(b c d) k=${#patches[@]}
  [ "$k" -eq 0 ] && k=1
  names=(a "${letters[@]:0:$k}")
}

# ab_build_all: A, then the variants; names gets their letters. With
# prebuilt set, the pack's builds instead (ab_unpack); with a_copy=1, A
# built from a copy of the tree in $ab_dir/a, as a variant is (build/ left
# as it is).
ab_build_all() {
  ab_variant_names
  if [ -n "${prebuilt:-}" ]; then
    ab_unpack "$prebuilt"
    return
  fi
  if [ "${a_copy:-0}" = 1 ]; then
    ab_copy a
    ab_build a "$ab_dir/a" "$ab_dir/a/build"
  else
    ab_build a . build
  fi
  local v i=0
  for v in "${names[@]:1}"; do
    ab_variant "$v" "${patches[$i]:-}"
    i=$((i + 1))
  done
}

# ab_tree_hash: a hash of the files a build is made of (CMakeLists.txt,
# cmake, include, src, tests, less what git ignores there), the same on
# this machine and on the GPU machine's copy of the tree.
ab_tree_hash() {
  find CMakeLists.txt cmake include src tests -type f ! -path '*/__pycache__/*' \
    ! -name '*.o' -print0 | LC_ALL=C sort -z | xargs -0 sha256sum | sha256sum | cut -c1-16
}

# ab_manifest: what a pack's builds are, one line each: the tree's hash,
# the flags, each patch's hash in order.
ab_manifest() {
  echo "tree $(ab_tree_hash)"
  echo "flags $flags"
  local p
  for p in "${patches[@]}"; do
    echo "patch $(sha256sum < "$p" | cut -c1-16)"
  done
}

# ab_unpack DIR: the builds of ab-prebuild.sh's pack in DIR into
# $ab_dir/NAME/build, after checking that its manifest is this tree's and
# these variants' (ab_manifest; the lines starting with # are notes);
# exits 1 when it is not, or the pack cannot be read.
ab_unpack() {
  local want have
  want=$(ab_manifest)
  have=$(grep -v '^#' "$1/manifest" 2>/dev/null) ||
    { echo "ab: no pack in '$1' (scripts/ab-prebuild.sh makes one)" >&2; exit 1; }
  if [ "$want" != "$have" ]; then
    { echo "ab: the pack in '$1' was built from another tree or other variants (<: the pack's, >: here):"
      diff <(echo "$have") <(echo "$want") | sed 's/^/  /'
      echo "ab: make it again with scripts/ab-prebuild.sh and the same --flags/--patch"
    } >&2
    exit 1
  fi
  local v
  for v in "${names[@]}"; do rm -rf "${ab_dir:?}/$v"; done
  mkdir -p "$ab_dir" && tar -xzf "$1/builds.tar.gz" -C "$ab_dir" ||
    { echo "ab: cannot unpack $1/builds.tar.gz into $ab_dir" >&2; exit 1; }
  echo "ab: the builds of the pack in $1:"
  grep '^#' "$1/manifest" | sed 's/^# */  /'
}

# ab_run_checks SCRIPT: every build's test_gpu_reduce (built when targets
# has it), logs in $out/check-NAME.log, one line of results; a failing
# build ends the script (exit 1: it is not timed). Exit 77 is a skip.
ab_run_checks() {
  local line="$1: checks:" v
  for v in "${names[@]}"; do
    "$(ab_dir_of "$v")/tests/gpu/test_gpu_reduce" > "$out/check-$v.log" 2>&1
    case $? in
      0) line+=" $v PASS" ;;
      77) line+=" $v SKIP" ;;
      *) echo "$line $v FAIL"; tail -5 "$out/check-$v.log"
         echo "$1: $v fails test_gpu_reduce ($out/check-$v.log): not timed" >&2; exit 1 ;;
    esac
  done
  echo "$line"
}

# ab_dir_of NAME: the build folder of variant NAME.
ab_dir_of() {
  if [ "$1" = a ] && [ -z "${prebuilt:-}" ] && [ "${a_copy:-0}" != 1 ]; then
    echo build
  else
    echo "$ab_dir/$1/build"
  fi
}
