# sass.cmake - the SASS of a PTX file as the model reads it: ptxas compiles
# the PTX with line information, nvdisasm prints every instruction with the
# PTX line it came from (src/model/sass.h).
#
#   cmake -DPTXAS=ptxas -DNVDISASM=nvdisasm -DARCH=sm_90
#         -DINPUT=catalogue.ptx -DOUTPUT=catalogue.sass -P cmake/sass.cmake
#
# ARCH is the model's architecture (CURED_MODEL_ARCH, cmake/arch.cmake), the
# one the PTX was made for.
#
# Writes OUTPUT (and OUTPUT's name with .cubin beside it). Fails when either
# tool fails.
foreach(var PTXAS NVDISASM ARCH INPUT OUTPUT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "sass.cmake: pass -D${var}=...")
  endif()
endforeach()
get_filename_component(dir "${OUTPUT}" DIRECTORY)
get_filename_component(stem "${OUTPUT}" NAME_WE)
set(cubin "${dir}/${stem}.cubin")
execute_process(COMMAND "${PTXAS}" -arch=${ARCH} -lineinfo "${INPUT}" -o "${cubin}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sass.cmake: ptxas failed on ${INPUT} (${rc})")
endif()
execute_process(COMMAND "${NVDISASM}" -gp -c "${cubin}" OUTPUT_FILE "${OUTPUT}"
                RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "sass.cmake: nvdisasm failed on ${cubin} (${rc})")
endif()
