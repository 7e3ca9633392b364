# Shared by the cmake.* test scripts (cmake -P). Every script receives:
#   -DTEST=<ctest name>  -DPREFIX=<install prefix>  -DWORK=<scratch directory>  -DSOURCE=<tests/cmake>
#   -DCXX=<C++ compiler>  -DLAUNCHER=<compiler launcher or empty>  -DBUILD_TYPE=<config>
#   -DNINJA=<ninja>
cmake_minimum_required(VERSION 3.25)

foreach(var TEST PREFIX WORK SOURCE CXX NINJA)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "tests/cmake: -D${var}=... is required")
  endif()
endforeach()

# Prints the details verbatim (FATAL_ERROR would re-wrap them) and fails.
function(fail text)
  message("${TEST}: ${text}")
  message(FATAL_ERROR "${TEST} failed (details above)")
endfunction()

# Runs a command; sets <prefix>_rc and <prefix>_output (stdout and stderr, interleaved).
function(run prefix)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  set(${prefix}_rc "${rc}" PARENT_SCOPE)
  set(${prefix}_output "${output}" PARENT_SCOPE)
endfunction()

# Runs a command that must succeed; sets <prefix>_output.
function(run_ok prefix)
  run(step ${ARGN})
  if(NOT step_rc EQUAL 0)
    string(REPLACE ";" " " command "${ARGN}")
    fail("`${command}` failed (exit ${step_rc}):\n${step_output}")
  endif()
  set(${prefix}_output "${step_output}" PARENT_SCOPE)
endfunction()

# Fails unless every file of ARGN (relative to <dir>) exists; <what> made them and printed <output>.
function(expect_files dir what output)
  foreach(file IN LISTS ARGN)
    if(NOT EXISTS "${dir}/${file}")
      fail("${what} did not create ${file}:\n${output}")
    endif()
  endforeach()
endfunction()

# Configures the project in <source_dir> into <build_dir> against the installed rrgen, with the
# compiler and launcher of the enclosing build (so ccache serves repeated runs).
function(configure_project prefix source_dir build_dir)
  set(args -S "${source_dir}" -B "${build_dir}" -G Ninja "-DCMAKE_MAKE_PROGRAM=${NINJA}"
    "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_PREFIX_PATH=${PREFIX}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
  if(LAUNCHER)
    list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
  endif()
  run(configure "${CMAKE_COMMAND}" ${args} ${ARGN})
  set(${prefix}_rc "${configure_rc}" PARENT_SCOPE)
  set(${prefix}_output "${configure_output}" PARENT_SCOPE)
endfunction()

# Builds <build_dir> (Ninja); sets <prefix>_output to what Ninja printed.
function(build_project prefix build_dir)
  run_ok(build "${CMAKE_COMMAND}" --build "${build_dir}")
  set(${prefix}_output "${build_output}" PARENT_SCOPE)
endfunction()

# Runs the project's tests; they must all pass, and there must be at least <min_tests>.
function(test_project build_dir min_tests)
  run_ok(ctest "${CMAKE_CTEST_COMMAND}" --test-dir "${build_dir}" --output-on-failure)
  if(NOT ctest_output MATCHES "100% tests passed, 0 tests failed out of ([0-9]+)")
    fail("unexpected ctest summary:\n${ctest_output}")
  endif()
  if(CMAKE_MATCH_1 LESS min_tests)
    fail("expected at least ${min_tests} tests, ctest ran ${CMAKE_MATCH_1}:\n${ctest_output}")
  endif()
endfunction()

# The compiled translation units Ninja's output names ("Building CXX object <object>"), as a list.
function(compiled_objects out_var output)
  string(REGEX MATCHALL "Building CXX object [^\n]+" lines "${output}")
  list(TRANSFORM lines REPLACE "^Building CXX object " "")
  set(${out_var} "${lines}" PARENT_SCOPE)
endfunction()
