# Script run after a doctest executable is built (by rrgen_discover_doctests, RrgenTesting.cmake):
# lists its test cases and writes CTEST_FILE with one ctest test per case.
#
# Unlike doctest's own doctestAddTests.cmake, a test case name may hold any character: a ';'
# there split one case into two ctest tests whose filters matched nothing, and doctest passes a
# run that matches nothing, so such cases silently never ran. Names travel here as bracket
# arguments, ',' is escaped for doctest's filter, and every test fails when its run executed no
# test case (FAIL_REGULAR_EXPRESSION), so a name the filter cannot match is an error, not a pass.
#
# Inputs (-D): TEST_EXECUTABLE, TEST_EXECUTOR (an emulator for cross builds, or empty), TEST_WORKING_DIR, TEST_PREFIX, TEST_LABELS (labels joined by '|'),
# TEST_SLOW_REGEX (optional: matching names get 'slow' in place of 'fast'), CTEST_FILE.

execute_process(
  COMMAND ${TEST_EXECUTOR} "${TEST_EXECUTABLE}" --list-test-cases
  OUTPUT_VARIABLE output
  ERROR_VARIABLE errors
  RESULT_VARIABLE result
  WORKING_DIRECTORY "${TEST_WORKING_DIR}")
if(NOT result EQUAL 0)
  message(FATAL_ERROR "listing the test cases of ${TEST_EXECUTABLE} failed (${result}):\n${output}${errors}")
endif()

# Lines become list elements: a ';' inside a name is swapped for a separator no name holds first.
string(ASCII 31 unit_separator)
string(REPLACE ";" "${unit_separator}" output "${output}")
string(REPLACE "\n" ";" lines "${output}")
string(REPLACE "|" ";" labels "${TEST_LABELS}")
set(slow_labels "${labels}")
list(TRANSFORM slow_labels REPLACE "^fast$" "slow")

# A bracket argument long enough that no test name can end it early.
set(open "[==========[")
set(close "]==========]")
set(no_case_ran "test cases: +0 \\| +0 passed \\| +0 failed \\|")

set(executor "")
foreach(part IN LISTS TEST_EXECUTOR)
  string(APPEND executor "${open}${part}${close} ")
endforeach()

set(script "")
foreach(line IN LISTS lines)
  if(line STREQUAL "" OR line MATCHES "^===+$" OR line MATCHES "^\\[doctest\\] ")
    continue()
  endif()
  string(REPLACE "${unit_separator}" ";" name "${line}")
  string(FIND "${name}" "${close}" unsafe)
  if(NOT unsafe EQUAL -1)
    message(FATAL_ERROR "${TEST_EXECUTABLE}: test case name holds ${close}: ${name}")
  endif()
  string(REPLACE "," "\\," filter "${name}")  # doctest splits filters on ','
  set(test_labels "${labels}")
  if(TEST_SLOW_REGEX AND name MATCHES "${TEST_SLOW_REGEX}")
    set(test_labels "${slow_labels}")
  endif()
  string(APPEND script
    "add_test(${open}${TEST_PREFIX}${name}${close} ${executor}${open}${TEST_EXECUTABLE}${close} ${open}--test-case=${filter}${close})\n"
    "set_tests_properties(${open}${TEST_PREFIX}${name}${close} PROPERTIES"
    " WORKING_DIRECTORY ${open}${TEST_WORKING_DIR}${close}"
    " LABELS ${open}${test_labels}${close}"
    " FAIL_REGULAR_EXPRESSION ${open}${no_case_ran}${close})\n")
endforeach()

file(WRITE "${CTEST_FILE}" "${script}")
