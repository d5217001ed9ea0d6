# arch.cmake - the one GPU architecture the model works for, from
# CMAKE_CUDA_ARCHITECTURES (included by the top-level CMakeLists.txt).
#
# defines: cured_model_arch_of(OUT ARCHS), and sets CURED_MODEL_ARCH
#
# The kernels in libcured are compiled for every architecture in
# CMAKE_CUDA_ARCHITECTURES (CMake passes them to nvcc). The model needs one:
# the catalogue's PTX it embeds (src/kernels: nvcc -arch), the SASS it
# embeds beside it (cmake/sass.cmake: ptxas -arch) and the default of
# `cured model --cu` (src/model/host: nvcc and ptxas -arch for a user's
# .cu) all use CURED_MODEL_ARCH, "sm_NN". The rule:
#
#   - a list ("90", "80;90-real", "90a-real;100-virtual"): the lowest
#     architecture with real code (no -virtual suffix), with its a/f suffix
#     (90a -> sm_90a); a list of -virtual ones only: the lowest of those.
#     The lowest, because its PTX is what every GPU of the list can run.
#   - "native": the lowest of the build machine's GPUs, as CMake detected
#     them (CMAKE_CUDA_ARCHITECTURES_NATIVE).
#   - "all", "all-major", OFF, or no CUDA compiler at all: sm_90, the H200
#     the model's counters are measured against (docs/model.md). "all"
#     would give the oldest GPU the toolkit knows, which the model does not
#     model.
#
# Default: CMAKE_CUDA_ARCHITECTURES is 90 (top-level CMakeLists.txt), so
# CURED_MODEL_ARCH is sm_90 (sm_90 SASS and compute_90 PTX for libcured).

# cured_model_arch_of(OUT ARCHS): sets OUT in the caller to "sm_NN" for the
# CMAKE_CUDA_ARCHITECTURES value ARCHS by the rule above. A malformed entry
# is a configure error.
function(cured_model_arch_of out archs)
  set(default sm_90)
  if(archs STREQUAL "native" AND CMAKE_CUDA_ARCHITECTURES_NATIVE)
    set(archs "${CMAKE_CUDA_ARCHITECTURES_NATIVE}")
  endif()
  if(NOT archs OR archs MATCHES "^(all|all-major|native)$")
    set(${out} ${default} PARENT_SCOPE)
    return()
  endif()
  set(best_real "")
  set(best_virtual "")
  foreach(a IN LISTS archs)
    if(NOT a MATCHES "^([0-9]+)([a-z]?)(-real|-virtual)?$")
      message(FATAL_ERROR "cured: cannot read CUDA architecture '${a}' in "
                          "CMAKE_CUDA_ARCHITECTURES='${archs}'")
    endif()
    set(number ${CMAKE_MATCH_1})
    set(name "${CMAKE_MATCH_1}${CMAKE_MATCH_2}")
    if(CMAKE_MATCH_3 STREQUAL "-virtual")
      set(slot best_virtual)
    else()
      set(slot best_real)
    endif()
    if(NOT ${slot})
      set(${slot} ${name})
    else()
      string(REGEX MATCH "^[0-9]+" have "${${slot}}")
      if(number LESS have)
        set(${slot} ${name})
      endif()
    endif()
  endforeach()
  if(best_real)
    set(${out} sm_${best_real} PARENT_SCOPE)
  else()
    set(${out} sm_${best_virtual} PARENT_SCOPE)
  endif()
endfunction()

if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  cured_model_arch_of(CURED_MODEL_ARCH "${CMAKE_CUDA_ARCHITECTURES}")
else()
  cured_model_arch_of(CURED_MODEL_ARCH "")
endif()
