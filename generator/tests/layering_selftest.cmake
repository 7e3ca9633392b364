# Shows that layering_test.cmake fails where it should: on a small tree with one allowed and two
# bad includes, then on one whose exception is no longer used.
#   cmake -DCHECK=<layering_test.cmake> -DWORK_DIR=<scratch dir> -P layering_selftest.cmake
cmake_minimum_required(VERSION 3.20)

foreach(var CHECK WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "layering_selftest.cmake: -D${var}=... is required")
  endif()
endforeach()

# Runs the check on WORK_DIR/src; fails unless it fails and prints every `expected` text and
# none of the `unexpected` ones.
function(expect_failure)
  cmake_parse_arguments(ARG "" "" "EXPECTED;UNEXPECTED" ${ARGN})
  execute_process(COMMAND "${CMAKE_COMMAND}" "-DSRC_DIR=${WORK_DIR}/src"
                          "-DEXTRA_ALLOWED=model/model.hpp|load/schema.hpp" -P "${CHECK}"
                  RESULT_VARIABLE status OUTPUT_VARIABLE out ERROR_VARIABLE out)
  if(status EQUAL 0)
    message(FATAL_ERROR "the layering check passed a tree that breaks it:\n${out}")
  endif()
  foreach(text IN LISTS ARG_EXPECTED)
    string(FIND "${out}" "${text}" at)
    if(at EQUAL -1)
      message(FATAL_ERROR "the layering check did not say '${text}':\n${out}")
    endif()
  endforeach()
  foreach(text IN LISTS ARG_UNEXPECTED)
    string(FIND "${out}" "${text}" at)
    if(NOT at EQUAL -1)
      message(FATAL_ERROR "the layering check complained about '${text}':\n${out}")
    endif()
  endforeach()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
set(src "${WORK_DIR}/src")
file(WRITE "${src}/model/model.hpp" "#pragma once\n#include \"load/schema.hpp\"\n")  # an exception the test lists
file(WRITE "${src}/model/hooks.hpp" "#pragma once\n#include <vector>\n#include \"model/model.hpp\"\n#include \"support/diagnostics.hpp\"\n")
file(WRITE "${src}/backends/dies/emit_dies.cpp"
  "#include \"backends/dies/emit_dies.hpp\"\n"
  "#include \"sema/builtin_kinds.hpp\"\n"
  "  w.line(\"#include \" + h);  // generated text, not an include\n"
  "# include \"backends/types/emit_types.hpp\"\n")
file(WRITE "${src}/load/spec_reader.cpp" "// reads [specs]; one; two\n#include \"load/spec.hpp\"\n#include \"model/naming.hpp\"\n")
file(WRITE "${src}/cli/cli.cpp" "#include \"sema/sema.hpp\"\n#include \"backends/dies/emit_dies.hpp\"\n")

expect_failure(
  EXPECTED
    "${src}/backends/dies/emit_dies.cpp:2: includes \"sema/builtin_kinds.hpp\""
    "${src}/backends/dies/emit_dies.cpp:4: includes \"backends/types/emit_types.hpp\""
    "${src}/load/spec_reader.cpp:3: includes \"model/naming.hpp\""
  UNEXPECTED "model.hpp" "hooks.hpp" "cli.cpp" "emit_dies.cpp:1:" "emit_dies.cpp:3:" "spec_reader.cpp:2:")

# Once the exception's include is gone, the exception must go too.
file(REMOVE_RECURSE "${WORK_DIR}")
file(WRITE "${src}/model/model.hpp" "#pragma once\n#include \"support/diagnostics.hpp\"\n")
expect_failure(EXPECTED "the exception 'model/model.hpp including load/schema.hpp' is no longer needed")
message(STATUS "layering selftest: the check fails on bad includes and on a stale exception")
