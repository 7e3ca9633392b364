# cmake.misuse.<case>: a project whose CMakeLists.txt misuses add_reconciler() must fail to
# configure with a readable message. -DCASE=<tests/cmake/misuse/<case>.cmake>: the CMakeLists.txt
# to use (in a copy of the consumer project, so every other file it names exists), whose
# `# expect: <regex>` lines must all match CMake's output (whitespace runs read as one space,
# since CMake wraps long messages). The error must point at the user's add_reconciler() call.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

get_filename_component(case "${CASE}" NAME_WE)
set(src "${WORK}/misuse/${case}/src")
set(build "${WORK}/misuse/${case}/build")
file(REMOVE_RECURSE "${WORK}/misuse/${case}")
file(COPY "${SOURCE}/consumer/" DESTINATION "${src}")
file(COPY_FILE "${CASE}" "${src}/CMakeLists.txt")

file(READ "${CASE}" case_text)
if(case_text MATCHES "(^|\n)# expect: [^\n]*;")
  fail("${CASE}: an expect line holds a ';', which a CMake list would split")
endif()
file(STRINGS "${CASE}" expectations REGEX "^# expect: ")
list(TRANSFORM expectations REPLACE "^# expect: " "")
if(NOT expectations)
  fail("${CASE} has no '# expect: <regex>' line")
endif()

configure_project(configure "${src}" "${build}")
string(REGEX REPLACE "[ \n]+" " " flat "${configure_output}")
if(configure_rc EQUAL 0)
  fail("the configuration succeeded; expected it to fail:\n${configure_output}")
endif()
foreach(regex IN LISTS expectations)
  if(NOT flat MATCHES "${regex}")
    fail("CMake's output does not match '${regex}':\n${configure_output}")
  endif()
endforeach()
if(NOT flat MATCHES "CMakeLists\\.txt:[0-9]+ \\(add_reconciler\\)")
  fail("the error does not point at the add_reconciler() call:\n${configure_output}")
endif()
