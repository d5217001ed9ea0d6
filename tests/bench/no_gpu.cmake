# no_gpu.cmake - `cured bench` and `cured tour` on a machine without a GPU
# (CI's): one clear line saying no GPU or driver was found, never the CUDA
# runtime's "driver version is insufficient"; bench exits 1, tour explains
# that it skipped its GPU part and exits 0.
#
#   cmake -DCURED=path/to/cured -DMODE=bench|tour -P no_gpu.cmake
#
# On a machine with a GPU a short bench succeeds first; the script then
# prints "SKIP: a GPU is present", which the test's SKIP_REGULAR_EXPRESSION
# turns into a skip.
execute_process(COMMAND ${CURED} bench --min-log2 10 --max-log2 10 --runs 1
                        --target-ms 1 --kernels sequential
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(rc EQUAL 0)
  message("SKIP: a GPU is present")
  return()
endif()
set(line "no GPU found: this machine has no NVIDIA GPU or no NVIDIA driver \\(`cured model` runs the kernels on the CPU\\)")
if(MODE STREQUAL "bench")
  if(NOT rc EQUAL 1 OR NOT out STREQUAL "" OR NOT err MATCHES "^cured bench: ${line}\n$")
    message(FATAL_ERROR "bench without a GPU: exit ${rc} (expected 1), stdout "
            "'${out}' (expected none), stderr '${err}' (expected one line: ${line})")
  endif()
  return()
endif()
execute_process(COMMAND ${CURED} tour RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR out MATCHES "insufficient" OR
   NOT out MATCHES "\nskipped: ${line}\\.\nThe GPU part needs an NVIDIA GPU; parts 1 and 2 above ran in the model, on this CPU\\.\n$")
  message(FATAL_ERROR "tour without a GPU: exit ${rc} (expected 0)\nstdout:\n${out}\nstderr:\n${err}")
endif()
