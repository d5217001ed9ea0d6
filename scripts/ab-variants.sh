# ab-variants.sh - the builds behind an A/B on the GPU machine, sourced by
# gpu-ab.sh and gpu-ncu-ab.sh (not run on its own): A is the tree as it is,
# built in build/ (kept between device calls); each variant is a copy of
# the tree in ${ab_dir}/NAME, patched (one variant per --patch, letters b,
# c, d) or, with no patch, one variant b, built with the extra CUDA flags.
#
# The sourcing script sets: out (the log folder), ab_dir, flags (extra
# CMAKE_CUDA_FLAGS for the variants, may be empty), patches (an array of
# patch files, at most three), targets (an array of the build targets).
# ab_check_variants checks flags and patches, ab_positive a count;
# ab_build_all sets names (a, then the variants' letters) and exits 1 when
# a copy, a patch or a build fails; ab_run_checks runs each build's GPU
# test.

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

# ab_variant NAME [PATCH]: a copy of the tree in $ab_dir/NAME, patched,
# built with the flags.
ab_variant() {
  local dir="$ab_dir/$1"
  rm -rf "$dir" && mkdir -p "$dir" &&
    cp -r CMakeLists.txt cmake include src tests scripts examples docs "$dir"/ ||
    { echo "ab: cannot copy the tree to $dir" >&2; exit 1; }
  if [ -n "${2:-}" ]; then
    patch -d "$dir" -p1 < "$2" > "$out/patch-$1.log" 2>&1 ||
      { cat "$out/patch-$1.log"; echo "ab: the patch $2 does not apply" >&2; exit 1; }
  fi
  ab_build "$1" "$dir" "$dir/build" "$flags"
}

# ab_build_all: A, then the variants; names gets their letters.
ab_build_all() {
  ab_build a . build
  names=(a)
  if [ ${#patches[@]} -eq 0 ]; then
    ab_variant b
    names+=(b)
  else
    local letters=(b c d) i
    for i in "${!patches[@]}"; do
      ab_variant "${letters[$i]}" "${patches[$i]}"
      names+=("${letters[$i]}")
    done
  fi
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
  if [ "$1" = a ]; then echo build; else echo "$ab_dir/$1/build"; fi
}
