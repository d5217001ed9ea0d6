# install.cmake - what `cmake --install build --prefix P` puts in P, and the
# files that let another build find it (included by the top-level
# CMakeLists.txt after the targets exist).
#
#   P/lib/libcured.a            libcured: catalogue, API, dispatch, device
#                               presets, status strings, the kernels
#                               (cured::cured; pkg-config cured)
#   P/lib/libcured_model.a      the model, over libcured (cured::model;
#                               pkg-config cured-model)
#   P/include/                  cured.h, cured_model.h, cured_model_host.h
#   P/bin/cured                 the command line
#   P/lib/cmake/cured/          the CMake package: find_package(cured)
#   P/lib/pkgconfig/            cured.pc, cured-model.pc
#   P/share/doc/cured/          README.md and docs/ as in the repository
#                               (so the README's docs/ paths hold)
#
# (lib is CMAKE_INSTALL_LIBDIR, GNUInstallDirs: lib/<multiarch> under /usr
# on Debian.) Both libraries are static: a program links them and needs
# nothing from P at run time. A program using the model needs the catalogue
# PTX only through libcured_model.a, which embeds it.

set(CURED_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/cured)

install(TARGETS libcured cured_model EXPORT curedTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS cured_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES ${PROJECT_SOURCE_DIR}/include/cured.h
              ${PROJECT_SOURCE_DIR}/include/cured_model.h
              ${PROJECT_SOURCE_DIR}/include/cured_model_host.h
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(FILES ${PROJECT_SOURCE_DIR}/README.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

# ---------------------------------------------------------------------------
# The CMake package: cured::cured and cured::model, curedConfigVersion.cmake
# with cured_VERSION (project()). Before 1.0 a minor version may change the
# API, so only the same major.minor is compatible.
install(EXPORT curedTargets NAMESPACE cured:: DESTINATION ${CURED_CMAKE_DIR})
include(CMakePackageConfigHelpers)
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/curedConfig.cmake.in
  ${PROJECT_BINARY_DIR}/curedConfig.cmake INSTALL_DESTINATION ${CURED_CMAKE_DIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/curedConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/curedConfig.cmake
              ${PROJECT_BINARY_DIR}/curedConfigVersion.cmake
        DESTINATION ${CURED_CMAKE_DIR})

# ---------------------------------------------------------------------------
# pkg-config. The files find the prefix from where they lie (${pcfiledir}),
# so `cmake --install --prefix P` with any P gives working files.
# libcured is static, so `pkg-config --libs cured` (without --static) must
# name everything a C program's link needs, in Libs:
#   - with CUDA, the static CUDA runtime and what it uses
#     (-L<toolkit lib> -lcudart_static -ldl -lrt -lpthread), and the C++
#     runtime of the kernels' host code, CURED_CUDA_HOST_RUNTIME
#     (top-level CMakeLists.txt: -lstdc++ -lm with gcc). cured::cured
#     carries the same two in its link interface.
set(CURED_PC_DIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
set(CURED_PC_LIBS "")
#   - with CUDA, Cflags also name the toolkit's headers: cured_reduce takes
#     device memory, which a C program allocates with the CUDA runtime
#     (cuda_runtime.h); cured::cured carries them through CUDA::cudart_static.
set(CURED_PC_CFLAGS "")
if(CURED_HAVE_CUDA)
  list(GET CUDAToolkit_INCLUDE_DIRS 0 cuda_include)
  set(CURED_PC_CFLAGS " -I${cuda_include}")
  get_filename_component(cudart_dir "${CUDA_cudart_static_LIBRARY}" DIRECTORY)
  if(NOT cudart_dir)
    message(FATAL_ERROR "cured: FindCUDAToolkit found no cudart_static for cured.pc")
  endif()
  set(cxx_runtime ${CURED_CUDA_HOST_RUNTIME})
  list(TRANSFORM cxx_runtime PREPEND -l)
  list(JOIN cxx_runtime " " cxx_runtime)
  set(CURED_PC_LIBS " -L${cudart_dir} -lcudart_static -ldl -lrt -lpthread ${cxx_runtime}")
endif()
#   - with NCCL (cmake/nccl.cmake), libnccl for the sharded reduction
#     (shared: the library's folder must be where the loader looks, as the
#     toolkit's is); cured::cured names the same file.
if(CURED_HAVE_NCCL)
  get_filename_component(nccl_dir "${CURED_NCCL_LIBRARY}" DIRECTORY)
  set(CURED_PC_LIBS "${CURED_PC_LIBS} -L${nccl_dir} -lnccl")
endif()
# The prefix seen from the .pc files' folder, and the folders seen from the
# prefix (absolute when the user gave absolute ones).
file(RELATIVE_PATH CURED_PC_PREFIX ${CMAKE_INSTALL_PREFIX}/${CURED_PC_DIR}
     ${CMAKE_INSTALL_PREFIX})
string(REGEX REPLACE "/$" "" CURED_PC_PREFIX "${CURED_PC_PREFIX}")
foreach(dir LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${dir}}")
    set(CURED_PC_${dir} "${CMAKE_INSTALL_${dir}}")
  else()
    set(CURED_PC_${dir} "\${prefix}/${CMAKE_INSTALL_${dir}}")
  endif()
endforeach()
foreach(pc cured cured-model)
  configure_file(${PROJECT_SOURCE_DIR}/cmake/${pc}.pc.in ${PROJECT_BINARY_DIR}/${pc}.pc @ONLY)
  install(FILES ${PROJECT_BINARY_DIR}/${pc}.pc DESTINATION ${CURED_PC_DIR})
endforeach()
