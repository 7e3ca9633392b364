# rrgen_discover_doctests(<target> LABELS <label>... [TEST_PREFIX <prefix>] [SLOW_REGEX <regex>])
#
# Registers each doctest case of <target> as its own ctest test, named <prefix><case name>, with
# the given labels; cases whose name matches SLOW_REGEX get "slow" in place of "fast". The cases
# are listed after each build (RrgenDoctestAddTests.cmake, next to this file), as doctest's own
# doctest_discover_tests() does, but any character may appear in a case name, and a test whose
# run executes no case fails instead of passing.
function(rrgen_discover_doctests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TEST_PREFIX;SLOW_REGEX" "LABELS")
  set(tests_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_doctests.cmake")
  set(include_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_doctests_include.cmake")
  string(REPLACE ";" "|" labels "${ARG_LABELS}")
  get_property(emulator TARGET ${target} PROPERTY CROSSCOMPILING_EMULATOR)  # runs the listing when cross-built
  add_custom_command(TARGET ${target} POST_BUILD
    BYPRODUCTS "${tests_file}"
    COMMAND "${CMAKE_COMMAND}"
            -D "TEST_EXECUTABLE=$<TARGET_FILE:${target}>"
            -D "TEST_EXECUTOR=${emulator}"
            -D "TEST_WORKING_DIR=${CMAKE_CURRENT_BINARY_DIR}"
            -D "TEST_PREFIX=${ARG_TEST_PREFIX}"
            -D "TEST_LABELS=${labels}"
            -D "TEST_SLOW_REGEX=${ARG_SLOW_REGEX}"
            -D "CTEST_FILE=${tests_file}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/RrgenDoctestAddTests.cmake"
    VERBATIM)
  # Not built yet: one test that says so, rather than none.
  file(WRITE "${include_file}"
    "if(EXISTS \"${tests_file}\")\n"
    "  include(\"${tests_file}\")\n"
    "else()\n"
    "  add_test(${target}_NOT_BUILT ${target}_NOT_BUILT)\n"
    "endif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${include_file}")
endfunction()
