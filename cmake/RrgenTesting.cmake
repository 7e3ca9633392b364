# rrgen_discover_doctests(<target> LABELS <label>... [TEST_PREFIX <prefix>])
#
# Registers each doctest case of <target> as its own ctest test, with the given labels.
# doctest 2.4.9's discovery splits a PROPERTIES list and appends its own empty LABELS, so
# `PROPERTIES LABELS "unit;fast"` would end up as just "unit"; the labels are set from a ctest
# include file that runs after the discovered tests are defined instead.
function(rrgen_discover_doctests target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "TEST_PREFIX" "LABELS")
  set(prefix_args "")
  if(ARG_TEST_PREFIX)
    set(prefix_args TEST_PREFIX "${ARG_TEST_PREFIX}")
  endif()
  doctest_discover_tests(${target} ${prefix_args} TEST_LIST ${target}_TESTS)
  set(labels_file "${CMAKE_CURRENT_BINARY_DIR}/${target}_labels.cmake")
  file(WRITE "${labels_file}"
    "if(${target}_TESTS)\n  set_tests_properties(\${${target}_TESTS} PROPERTIES LABELS \"${ARG_LABELS}\")\nendif()\n")
  set_property(DIRECTORY APPEND PROPERTY TEST_INCLUDE_FILES "${labels_file}")
endfunction()
