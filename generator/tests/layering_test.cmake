# The generator's layering (docs/architecture.md), checked on the sources' include lines:
#   cmake -DSRC_DIR=<generator/src> -P layering_test.cmake
#
# A stage may include headers only from the stages below it, so that a backend never reaches
# into the loader or the resolver (sema resolves every fact the backends need into the model):
#   support/          support/
#   load/             load/, support/
#   model/            model/, support/
#   sema/             sema/, load/, model/, support/
#   backends/<name>/  backends/<name>/, model/, support/
#   analyze/          analyze/, model/, support/ (only the CLI links it: Clang stays out of the rest)
#   crd/              crd/, analyze/ (its Clang setup), support/ (rrgen crd: C++ structs -> CRDs)
#   image/            image/, support/ (rrgen image: ELF, tar, gzip and OCI JSON need no model)
#   cli/, main.cpp    anything
# Only `#include "stage/..."` lines count: system headers and headers outside the stages are free.
# Each offending include is printed as `<file>:<line>: ...` and the check fails.
cmake_minimum_required(VERSION 3.20)

if(NOT DEFINED SRC_DIR OR NOT IS_DIRECTORY "${SRC_DIR}")
  message(FATAL_ERROR "layering_test.cmake: -DSRC_DIR=<generator/src> is required")
endif()

# Includes that break the rules today and are being removed, as "<file under SRC_DIR>|<header>".
# Empty it as they go: an entry that matches no include fails the check, so none outlives its fix.
# Exceptions, one "file|header" per line with the reason above it; an entry that no longer
# matches fails the test, so the list cannot go stale. Empty: every stage keeps its rule.
set(ALLOWED)
# The self-test (layering_selftest.cmake) adds its own with -DEXTRA_ALLOWED=...
if(DEFINED EXTRA_ALLOWED)
  list(APPEND ALLOWED ${EXTRA_ALLOWED})
endif()

set(STAGES support load model sema backends analyze crd image cli)
set(MAY_INCLUDE_support support)
set(MAY_INCLUDE_load load support)
set(MAY_INCLUDE_model model support)
set(MAY_INCLUDE_sema sema load model support)
# backends/<name>: its own folder, model/ and support/ (the folder is added per file below).
set(MAY_INCLUDE_backends model support)
set(MAY_INCLUDE_analyze analyze model support)
set(MAY_INCLUDE_crd crd analyze support)
set(MAY_INCLUDE_image image support)

# "backends/dies" for a path under backends/dies/, else the first segment ("load").
function(stage_of path out)
  string(REGEX MATCH "^backends/[^/]+" stage "${path}")
  if(NOT stage)
    string(REGEX MATCH "^[^/]+" stage "${path}")
  endif()
  set(${out} "${stage}" PARENT_SCOPE)
endfunction()

file(GLOB_RECURSE sources RELATIVE "${SRC_DIR}" "${SRC_DIR}/*.hpp" "${SRC_DIR}/*.cpp" "${SRC_DIR}/*.hpp.in")
list(SORT sources)
set(problems "")
set(used_allowed "")
set(checked 0)
foreach(file IN LISTS sources)
  stage_of("${file}" stage)
  string(REGEX MATCH "^[^/]+" layer "${stage}")
  if(NOT layer IN_LIST STAGES OR layer STREQUAL "cli")
    continue()  # cli/ and main.cpp sit on top of everything
  endif()
  math(EXPR checked "${checked} + 1")
  set(may_include ${MAY_INCLUDE_${layer}})
  if(layer STREQUAL "backends")
    list(APPEND may_include "${stage}")
  endif()

  # One list element per line; ';' and brackets would split or glue CMake list elements.
  file(READ "${SRC_DIR}/${file}" text)
  string(REPLACE ";" "<semicolon>" text "${text}")
  string(REPLACE "[" "<lbracket>" text "${text}")
  string(REPLACE "]" "<rbracket>" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(NOT line MATCHES "^[ \t]*#[ \t]*include[ \t]*\"([^\"]+)\"")
      continue()
    endif()
    set(header "${CMAKE_MATCH_1}")
    stage_of("${header}" to)
    string(REGEX MATCH "^[^/]+" to_layer "${to}")
    if(NOT to_layer IN_LIST STAGES)
      continue()
    endif()
    set(target "${to_layer}")
    if(to_layer STREQUAL "backends")
      set(target "${to}")
    endif()
    if(target IN_LIST may_include)
      continue()
    endif()
    if("${file}|${header}" IN_LIST ALLOWED)
      list(APPEND used_allowed "${file}|${header}")
      continue()
    endif()
    string(REPLACE ";" ", " allowed_text "${may_include}")
    string(APPEND problems "${SRC_DIR}/${file}:${number}: includes \"${header}\"; ${stage}/ may include only from ${allowed_text}\n")
  endforeach()
endforeach()

foreach(entry IN LISTS ALLOWED)
  if(NOT entry IN_LIST used_allowed)
    string(REPLACE "|" " including " shown "${entry}")
    string(APPEND problems "layering_test.cmake: the exception '${shown}' is no longer needed: remove it from ALLOWED\n")
  endif()
endforeach()

if(problems)
  message("${problems}")  # as is: one `file:line: ...` a line, for editors and CI logs
  message(FATAL_ERROR "layering: includes that break the generator's stage order (above)")
endif()
message(STATUS "layering: the ${checked} files below cli/ include only what their stage may")
