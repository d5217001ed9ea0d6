# expect.cmake - runs `cured` as a user would and checks its exit status and
# output: the tests of `cured model` (ctest alone cannot check both).
#
#   cmake -DCURED=path/to/cured -DARGS="model^^--ptx^^f.ptx" -DRC=0 (or 0|1)
#         [-DMATCH="re1^^re2"] [-DNOMATCH="re"] [-DSTDERR="re"] [-DSAME="re"]
#         [-DJSON=1] [-DOUT_FILE=path -DOUT_BYTES=n] [-DTOOL_MESSAGES=1]
#         [-DULIMIT_V=KiB]
#         -P expect.cmake
#
# Lists are joined with ^^ (a ';' would not survive add_test). RC may name
# several statuses (0|1), for a case whose status is not what it checks. MATCH and
# NOMATCH look at stdout, STDERR at stderr. SAME is a regex with two groups
# that must match stdout and capture the same text (a value and the
# reference printed beside it: CMake's regexes have no backreferences). Exit 2 must come with exactly one
# line on stderr and nothing on stdout (the CLI's convention; with
# TOOL_MESSAGES=1, a toolkit program's messages may come before that
# line, which must be the last); with JSON=1, stdout must hold that line
# as {"error": "...", "exit_status": 2}. JSON=1 checks
# that stdout is one JSON document (python3 -m json.tool, when python3 is
# there). ULIMIT_V runs it under `ulimit -v KiB`: a process with that much
# memory to use, whatever the machine has.
string(REPLACE "^^" ";" args "${ARGS}")
if(DEFINED OUT_FILE)
  file(REMOVE "${OUT_FILE}")
endif()
if(DEFINED ULIMIT_V)     # under an address-space limit of ULIMIT_V KiB
  set(command sh -c "ulimit -v ${ULIMIT_V} && exec \"$0\" \"$@\"" ${CURED} ${args})
else()
  set(command ${CURED} ${args})
endif()
execute_process(COMMAND ${command} RESULT_VARIABLE rc
                OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(shown "cured ${args}\n--- exit ${rc}, stdout:\n${out}--- stderr:\n${err}")
if(NOT "${rc}" MATCHES "^(${RC})$")
  message(FATAL_ERROR "expected exit ${RC}\n${shown}")
endif()
if(RC EQUAL 2 AND TOOL_MESSAGES)
  # a toolkit program's own messages (nvcc's errors) may come first
  if(NOT err MATCHES "\ncured [a-z]+: [^\n]*\n$" OR NOT out STREQUAL "")
    message(FATAL_ERROR "exit 2 wants the tool's messages, then one line of ours "
            "last on stderr, nothing on stdout\n${shown}")
  endif()
elseif(RC EQUAL 2)
  string(REGEX MATCHALL "\n" newlines "${err}")
  list(LENGTH newlines lines)
  if(JSON)
    # with --json, the same line as a JSON object on stdout, too
    string(REGEX REPLACE "^cured model: (.*)\n$" "\\1" message "${err}")
    string(REPLACE "\\" "\\\\" message "${message}")
    string(REPLACE "\"" "\\\"" message "${message}")
    set(want "{\"error\": \"${message}\", \"exit_status\": 2}\n")
    if(NOT lines EQUAL 1 OR NOT out STREQUAL want)
      message(FATAL_ERROR "exit 2 with --json wants one line on stderr and "
              "on stdout ${want}\n${shown}")
    endif()
  elseif(NOT lines EQUAL 1 OR NOT out STREQUAL "")
    message(FATAL_ERROR "exit 2 wants one line on stderr, nothing on stdout\n${shown}")
  endif()
endif()
if(DEFINED MATCH)
  string(REPLACE "^^" ";" res "${MATCH}")
  foreach(re IN LISTS res)
    if(NOT out MATCHES "${re}")
      message(FATAL_ERROR "stdout does not match '${re}'\n${shown}")
    endif()
  endforeach()
endif()
if(DEFINED NOMATCH AND out MATCHES "${NOMATCH}")
  message(FATAL_ERROR "stdout matches '${NOMATCH}'\n${shown}")
endif()
if(DEFINED SAME)
  if(NOT out MATCHES "${SAME}")
    message(FATAL_ERROR "stdout does not match '${SAME}'\n${shown}")
  endif()
  if(NOT CMAKE_MATCH_1 STREQUAL CMAKE_MATCH_2)
    message(FATAL_ERROR "'${CMAKE_MATCH_1}' and '${CMAKE_MATCH_2}' differ "
            "(SAME '${SAME}')\n${shown}")
  endif()
endif()
if(DEFINED STDERR AND NOT err MATCHES "${STDERR}")
  message(FATAL_ERROR "stderr does not match '${STDERR}'\n${shown}")
endif()
if(JSON)
  find_program(PYTHON3 python3)
  if(PYTHON3)
    string(MD5 tag "${ARGS}")
    set(json_file "${CMAKE_CURRENT_BINARY_DIR}/expect-${tag}.json")
    file(WRITE "${json_file}" "${out}")
    execute_process(COMMAND ${PYTHON3} -m json.tool "${json_file}"
                    RESULT_VARIABLE jrc OUTPUT_QUIET ERROR_VARIABLE jerr)
    file(REMOVE "${json_file}")
    if(NOT jrc EQUAL 0)
      message(FATAL_ERROR "stdout is not JSON: ${jerr}\n${shown}")
    endif()
  elseif(NOT out MATCHES "^{.*}\n$")
    message(FATAL_ERROR "stdout is not one JSON object\n${shown}")
  endif()
endif()
if(DEFINED OUT_FILE)
  if(NOT EXISTS "${OUT_FILE}")
    message(FATAL_ERROR "${OUT_FILE} was not written\n${shown}")
  endif()
  file(SIZE "${OUT_FILE}" size)
  if(NOT size EQUAL OUT_BYTES)
    message(FATAL_ERROR "${OUT_FILE} has ${size} bytes, not ${OUT_BYTES}\n${shown}")
  endif()
endif()
