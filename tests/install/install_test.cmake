# install_test.cmake - installs a build of cured into a temporary prefix
# and uses the installed tree as a user would (tests/install/CMakeLists.txt
# registers it as the ctest install_tree):
#
#   1. `cmake --install BUILD_DIR --prefix WORK/stage`, then moves the tree
#      to WORK/prefix: nothing in it may depend on where it was installed;
#      checks the files a user looks for are there, and no third library;
#   2. builds examples/ with CMake, find_package(cured) finding WORK/prefix;
#   3. builds the same two programs with the C compiler alone and the flags
#      of `pkg-config --cflags --libs cured` / `cured-model`;
#   4. runs both builds of each program: the same output, and the output
#      libcured and the model promise (the catalogue as `cured list` gives
#      it, the device call's documented status, the model's sum beside its
#      reference and its architecture).
#
# Arguments (-D): BUILD_DIR WORK EXAMPLES GENERATOR C_COMPILER PKG_CONFIG
# LIBDIR VERSION HAVE_CUDA MODEL_ARCH. Stops at the first failing step with
# a FATAL_ERROR that names it.
foreach(var BUILD_DIR WORK EXAMPLES GENERATOR C_COMPILER PKG_CONFIG LIBDIR
            VERSION HAVE_CUDA MODEL_ARCH)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "install_test.cmake: pass -D${var}=...")
  endif()
endforeach()

# run(STEP command...): runs the command; its stdout and stderr in
# run_out and run_err. A non-zero exit stops the test.
function(run step)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "install_tree: ${step} failed (${rc}): ${ARGN}\n${out}\n${err}")
  endif()
  set(run_out "${out}" PARENT_SCOPE)
  set(run_err "${err}" PARENT_SCOPE)
endfunction()

# want(STEP TEXT REGEX): TEXT must match REGEX.
function(want step text regex)
  if(NOT text MATCHES "${regex}")
    message(FATAL_ERROR "install_tree: ${step}: no match for '${regex}' in:\n${text}")
  endif()
endfunction()

file(REMOVE_RECURSE ${WORK})
set(prefix ${WORK}/prefix)
set(pcdir ${prefix}/${LIBDIR}/pkgconfig)

# ---------------------------------------------------------------- 1. tree
run(install ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK}/stage)
file(RENAME ${WORK}/stage ${prefix})
foreach(f bin/cured include/cured.h include/cured_model.h
          include/cured_model_host.h ${LIBDIR}/libcured.a
          ${LIBDIR}/libcured_model.a ${LIBDIR}/cmake/cured/curedConfig.cmake
          ${LIBDIR}/cmake/cured/curedConfigVersion.cmake
          ${LIBDIR}/pkgconfig/cured.pc ${LIBDIR}/pkgconfig/cured-model.pc
          share/doc/cured/README.md share/doc/cured/docs/model.md)
  if(NOT EXISTS ${prefix}/${f})
    message(FATAL_ERROR "install_tree: ${f} is not in the installed tree")
  endif()
endforeach()
file(GLOB libraries RELATIVE ${prefix}/${LIBDIR} ${prefix}/${LIBDIR}/*.a)
list(SORT libraries)
if(NOT libraries STREQUAL "libcured.a;libcured_model.a")
  message(FATAL_ERROR "install_tree: libraries installed: ${libraries} "
                      "(want libcured.a and libcured_model.a)")
endif()
run("cured --version" ${prefix}/bin/cured --version)
want("cured --version" "${run_out}" "^cured ${VERSION}\n$")
run("cured list" ${prefix}/bin/cured list)
set(cured_list "${run_out}")
run("cured model --help" ${prefix}/bin/cured model --help)
want("cured model --help" "${run_out}" "--arch sm_XX .*\\(default ${MODEL_ARCH}, this build's\\)")

# ----------------------------------------------------- 2. find_package(cured)
run("configure examples/ with find_package" ${CMAKE_COMMAND} -S ${EXAMPLES}
    -B ${WORK}/cmake -G ${GENERATOR} -DCMAKE_C_COMPILER=${C_COMPILER}
    -DCMAKE_PREFIX_PATH=${prefix} -DCMAKE_FIND_USE_PACKAGE_REGISTRY=OFF)
file(STRINGS ${WORK}/cmake/CMakeCache.txt cured_dir REGEX "^cured_DIR:")
if(NOT cured_dir STREQUAL "cured_DIR:PATH=${prefix}/${LIBDIR}/cmake/cured")
  message(FATAL_ERROR "install_tree: find_package(cured) found ${cured_dir}, "
                      "not the installed tree")
endif()
run("build examples/ with find_package" ${CMAKE_COMMAND} --build ${WORK}/cmake)

# ---------------------------------------------------------- 3. pkg-config
set(ENV{PKG_CONFIG_PATH} ${pcdir})
string(REGEX REPLACE "([][+.*()^$?|\\])" "\\\\\\1" pcdir_regex "${pcdir}")
run("pkg-config --modversion cured" ${PKG_CONFIG} --modversion cured)
want("pkg-config --modversion cured" "${run_out}" "^${VERSION}\n$")
run("pkg-config --variable=arch cured-model" ${PKG_CONFIG} --variable=arch cured-model)
want("pkg-config --variable=arch cured-model" "${run_out}" "^${MODEL_ARCH}\n$")
file(MAKE_DIRECTORY ${WORK}/pkg-config)
set(programs catalogue_list:cured model_sum:cured-model)
if(HAVE_CUDA) # reduce_sum allocates device memory with the CUDA runtime
  list(APPEND programs reduce_sum:cured)
endif()
foreach(pair ${programs})
  string(REPLACE ":" ";" pair ${pair})
  list(GET pair 0 program)
  list(GET pair 1 package)
  run("pkg-config --cflags --libs ${package}" ${PKG_CONFIG} --cflags --libs ${package})
  want("pkg-config --cflags --libs ${package}" "${run_out}"
       "^-I${pcdir_regex}/[./]*include( -I[^ ]+)* -L${pcdir_regex}/[./]*lib")
  separate_arguments(flags UNIX_COMMAND "${run_out}")
  run("cc ${program}.c $(pkg-config --cflags --libs ${package})" ${C_COMPILER}
      ${EXAMPLES}/${program}.c ${flags} -o ${WORK}/pkg-config/${program})
endforeach()

# ---------------------------------------------------------------- 4. runs
# example(PROGRAM RC ARGS...): runs both builds of PROGRAM with ARGS; both
# must exit RC and print the same; their stdout and stderr in ex_out and
# ex_err.
function(example program rc)
  set(outputs "")
  foreach(build cmake pkg-config)
    execute_process(COMMAND ${WORK}/${build}/${program} ${ARGN}
                    RESULT_VARIABLE got OUTPUT_VARIABLE out ERROR_VARIABLE err)
    if(NOT got STREQUAL "${rc}")
      message(FATAL_ERROR "install_tree: ${build}/${program} ${ARGN}: exit ${got}, "
                          "want ${rc}\n${out}\n${err}")
    endif()
    list(APPEND outputs "${out}${err}")
  endforeach()
  list(GET outputs 0 first)
  list(GET outputs 1 second)
  if(NOT first STREQUAL second)
    message(FATAL_ERROR "install_tree: ${program} ${ARGN}: the CMake and the "
                        "pkg-config builds differ:\n${first}\n---\n${second}")
  endif()
  set(ex_out "${out}" PARENT_SCOPE)
  set(ex_err "${err}" PARENT_SCOPE)
endfunction()

# catalogue_list: every kernel of `cured list`, numbered as there; the
# H200 plan; the device call's status as documented for this build.
example(catalogue_list 0)
string(REGEX MATCHALL "[^\n]+" all_lines "${cured_list}")
set(list_lines "")
foreach(line IN LISTS all_lines)   # the kernels: "NN  name ..."; not the hints after
  if(line MATCHES "^ *[0-9]+  [a-z_]+ ")
    list(APPEND list_lines "${line}")
  endif()
endforeach()
list(LENGTH list_lines count)
want(catalogue_list "${ex_out}" "^catalogue: ${count} kernels\n")
foreach(line IN LISTS list_lines)
  string(REGEX MATCH "^ *[0-9]+  [a-z_]+ " entry "${line}")
  string(FIND "${ex_out}" "\n${entry}" at)
  if(entry STREQUAL "" OR at EQUAL -1)
    message(FATAL_ERROR "install_tree: catalogue_list lacks '${line}':\n${ex_out}")
  endif()
endforeach()
want(catalogue_list "${ex_out}" "\nplan for two_pass \\(f32, n [0-9]+, block 256\\) on NVIDIA H200[^\n]*: 2 launches")
if(HAVE_CUDA)
  want(catalogue_list "${ex_out}"
       "\non this machine's GPU: (success|a CUDA call or kernel launch failed)\n")
else()
  want(catalogue_list "${ex_out}" "\non this machine's GPU: libcured was built without CUDA\n$")
endif()

# model_sum: the whole plan in the model, every launch run, the sum beside
# its reference (integers: equal; floats: within the bound).
# plan_ran(TEXT): TEXT says every launch of the plan ran, with no finding.
function(plan_ran text)
  string(REGEX MATCH "in the model: ([0-9]+) of ([0-9]+) launches ran\n" ran "${text}")
  if(NOT ran OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
    message(FATAL_ERROR "install_tree: model_sum: not every launch ran:\n${text}")
  endif()
  want(model_sum "${text}" "\nfindings: 0\n$")
endfunction()
if(HAVE_CUDA)
  example(model_sum 0 two_pass 5000 i32)
  want(model_sum "${ex_out}" "^the model's architecture: ${MODEL_ARCH}\n")
  plan_ran("${ex_out}")
  string(REGEX MATCH "\nsum: (-?[0-9]+) \\(reference (-?[0-9]+)\\): equal\n" sum "${ex_out}")
  if(NOT sum OR NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
    message(FATAL_ERROR "install_tree: model_sum: no equal sum:\n${ex_out}")
  endif()
  example(model_sum 0 sequential 70001)
  plan_ran("${ex_out}")
  want(model_sum "${ex_out}" "\nsum: [^\n]+ \\(reference [^\n]+\\): within the bound\n")
else()
  example(model_sum 2)
  want(model_sum "${ex_err}" "^model_sum: this build has no embedded catalogue PTX")
endif()
# reduce_sum: cured_reduce_cpu's exact sum where a plain loop loses every
# unit, and cured_reduce on the GPU (with the CPU's bits) or the status
# that says why there is no GPU.
if(HAVE_CUDA)
  example(reduce_sum 0 300000)
  want(reduce_sum "${ex_out}" "\na plain loop in float: 0\n")
  want(reduce_sum "${ex_out}" "\ncured_reduce_cpu: 100000 \\(exact\\)\n")
  want(reduce_sum "${ex_out}"
       "\n(no GPU here: a CUDA call or kernel launch failed|cured_reduce on the GPU: 100000 \\(the CPU's bits\\))\n$")
  example(reduce_sum 2 7)
  want(reduce_sum "${ex_err}" "^usage: reduce_sum \\[N\\]")
endif()
message(STATUS "install_tree: ${prefix} works through find_package and pkg-config")
