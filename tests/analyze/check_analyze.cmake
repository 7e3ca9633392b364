# One `rrgen analyze` case: runs rrgen analyze -p BUILD_DIR <args.txt> in RUN_DIR and compares the
# exit status, standard output and standard error with CASE_DIR/expected.txt (UPDATE=ON rewrites it).
#   cmake -DRRGEN=<rrgen> -DCASE_DIR=<dir> -DRUN_DIR=<dir> -DBUILD_DIR=<build> [-DUPDATE=ON] -P check_analyze.cmake
cmake_minimum_required(VERSION 3.20)
foreach(var RRGEN CASE_DIR RUN_DIR BUILD_DIR)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_analyze.cmake: -D${var}=... is required")
  endif()
endforeach()

file(STRINGS "${CASE_DIR}/args.txt" args)
execute_process(
  COMMAND "${RRGEN}" analyze -p "${BUILD_DIR}" ${args}
  WORKING_DIRECTORY "${RUN_DIR}"
  RESULT_VARIABLE rc
  OUTPUT_VARIABLE out
  ERROR_VARIABLE err)
set(actual "exit status: ${rc}\n--- standard output\n${out}--- standard error\n${err}")

set(expected_file "${CASE_DIR}/expected.txt")
if(UPDATE)
  file(WRITE "${expected_file}" "${actual}")
  message(STATUS "rewrote ${expected_file}")
  return()
endif()
if(NOT EXISTS "${expected_file}")
  message(FATAL_ERROR "${expected_file} does not exist: run with -DRRGEN_UPDATE_GOLDEN=ON and read it\n${actual}")
endif()
file(READ "${expected_file}" expected)
if(NOT actual STREQUAL expected)
  message(FATAL_ERROR "rrgen analyze differs from ${expected_file}\n--- expected\n${expected}\n--- actual\n${actual}")
endif()
