# nccl.cmake - finds NCCL for the sharded reduction (cured_reduce_sharded,
# src/lib/comm.c): the toolkit's nccl.h and libnccl first, then NCCL_HOME
# or NCCL_ROOT, then the system's. Included by the top-level CMakeLists.txt
# after the CUDA check.
#
# Sets CURED_HAVE_NCCL (ON only in a CUDA build with both found and
# CURED_NCCL on), CURED_NCCL_INCLUDE_DIR and CURED_NCCL_LIBRARY (cache).
# Without NCCL libcured builds src/lib/comm_nonccl.c instead, whose calls
# answer CURED_ERROR_NO_NCCL; -DCURED_NCCL=OFF makes such a build on a
# machine that has NCCL.
option(CURED_NCCL "build the sharded reduction when NCCL is found" ON)
set(CURED_HAVE_NCCL OFF)
if(CURED_HAVE_CUDA AND CURED_NCCL)
  find_path(CURED_NCCL_INCLUDE_DIR nccl.h
    HINTS ${CUDAToolkit_INCLUDE_DIRS} ENV NCCL_HOME ENV NCCL_ROOT
    PATH_SUFFIXES include)
  find_library(CURED_NCCL_LIBRARY nccl
    HINTS ${CUDAToolkit_LIBRARY_DIR} ENV NCCL_HOME ENV NCCL_ROOT
    PATH_SUFFIXES lib lib64)
  if(CURED_NCCL_INCLUDE_DIR AND CURED_NCCL_LIBRARY)
    set(CURED_HAVE_NCCL ON)
    message(STATUS "cured: NCCL ${CURED_NCCL_LIBRARY}: the sharded reduction is built")
  endif()
endif()
if(NOT CURED_HAVE_NCCL)
  if(NOT CURED_HAVE_CUDA)
    set(why "no CUDA")
  elseif(NOT CURED_NCCL)
    set(why "CURED_NCCL=OFF")
  else()
    set(why "no nccl.h and libnccl found (set NCCL_HOME)")
  endif()
  message(STATUS "cured: ${why}: SKIPPING the sharded reduction "
                 "(its calls answer CURED_ERROR_NO_NCCL)")
endif()
