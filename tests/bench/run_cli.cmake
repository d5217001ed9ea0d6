# run_cli.cmake - runs `cured` once and checks its exit status and output.
#
#   cmake -DCURED=path/to/cured -DARGS="bench|--help" -DEXIT=0 -DMATCH=regex
#         [-DNODEVICE_SKIP=TRUE] -P run_cli.cmake
#
# ARGS separates words with '|'. For an error (EXIT 2) MATCH is matched
# against stderr alone, else against stdout followed by stderr. With
# NODEVICE_SKIP, a run that says "no GPU found" must have exited 1 with
# that one line on stderr; it then prints "SKIP: no CUDA device", which the
# test's SKIP_REGULAR_EXPRESSION turns into a skip.
string(REPLACE "|" ";" args "${ARGS}")
execute_process(COMMAND ${CURED} ${args} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NODEVICE_SKIP AND err MATCHES "cured bench: no GPU found: ")
  if(NOT rc EQUAL 1 OR NOT err MATCHES "^cured bench: no GPU found: [^\n]*\n$"
     OR NOT out STREQUAL "")
    message(FATAL_ERROR "without a GPU: exit ${rc} (expected 1), stdout '${out}', "
                        "stderr '${err}' (expected one line)")
  endif()
  message("SKIP: no CUDA device (exit 1, one line: ${err})")
  return()
endif()
if(NOT rc EQUAL EXIT)
  message(FATAL_ERROR "exit ${rc}, expected ${EXIT}\nstdout:\n${out}\nstderr:\n${err}")
endif()
if(EXIT EQUAL 2)
  set(text "${err}")
else()
  set(text "${out}${err}")
endif()
if(NOT text MATCHES "${MATCH}")
  message(FATAL_ERROR "output does not match '${MATCH}'\nstdout:\n${out}\nstderr:\n${err}")
endif()
