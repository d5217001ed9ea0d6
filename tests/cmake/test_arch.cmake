# test_arch.cmake - cured_model_arch_of (cmake/arch.cmake) on each form of
# CMAKE_CUDA_ARCHITECTURES:
#
#   cmake -DARCH_CMAKE=cmake/arch.cmake -P tests/cmake/test_arch.cmake
#   cmake -DARCH_CMAKE=... -DMALFORMED=sm_90 -P ...   (must stop, naming it)
#
# A wrong answer is a FATAL_ERROR naming the case.
include(${ARCH_CMAKE})
if(DEFINED MALFORMED)
  cured_model_arch_of(arch "${MALFORMED}")
  message(FATAL_ERROR "test_arch: '${MALFORMED}' was accepted as ${arch}")
endif()

# expect(ARCHS WANT): cured_model_arch_of gives WANT for ARCHS.
function(expect archs want)
  cured_model_arch_of(got "${archs}")
  if(NOT got STREQUAL want)
    message(FATAL_ERROR "test_arch: CMAKE_CUDA_ARCHITECTURES='${archs}' gave "
                        "'${got}', want '${want}'")
  endif()
endfunction()

# Not set (no CUDA compiler): the default, what the model models.
if(NOT CURED_MODEL_ARCH STREQUAL "sm_90")
  message(FATAL_ERROR "test_arch: default CURED_MODEL_ARCH ${CURED_MODEL_ARCH}")
endif()
expect("" sm_90)
expect(OFF sm_90)
# Plain lists: the lowest number, real code before virtual-only.
expect(90 sm_90)
expect(90-real sm_90)
expect(90-virtual sm_90)
expect("90;80" sm_80)
expect("100-real;90-real;120" sm_90)
expect("80-virtual;90-real" sm_90)
expect("100-virtual;90-virtual" sm_90)
# Arch-specific and family suffixes stay (ptxas takes sm_90a, sm_100f).
expect(90a-real sm_90a)
expect("100f;90a" sm_90a)
# The CMake keywords: all and all-major would pick the toolkit's oldest
# GPU, which the model does not model; native takes the machine's GPUs.
expect(all sm_90)
expect(all-major sm_90)
expect(native sm_90)
set(CMAKE_CUDA_ARCHITECTURES_NATIVE "90-real;86-real")
expect(native sm_86)
message(STATUS "test_arch: every case as the rule says")
