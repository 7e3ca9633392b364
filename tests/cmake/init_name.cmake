# cmake.init.name.<NAME>: `rrgen init NAME`, run as a user would (the project lands in ./NAME),
# configures against the installed rrgen, builds and passes its tests, whichever way the name is
# spelled ("my-operator", "my_operator"): the C++ and CMake names are the snake_case of NAME, the
# Kubernetes names its kebab-case.
# Extra argument: -DNAME=<project name>.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

string(REPLACE "-" "_" ident "${NAME}")
string(REPLACE "_" "-" dns "${NAME}")
set(root "${WORK}/init_name/${NAME}")
set(project "${root}/${NAME}")
set(build "${root}/build")
file(REMOVE_RECURSE "${root}")
file(MAKE_DIRECTORY "${root}")

execute_process(COMMAND "${PREFIX}/bin/rrgen" init "${NAME}" WORKING_DIRECTORY "${root}"
  RESULT_VARIABLE init_rc OUTPUT_VARIABLE init_output ERROR_VARIABLE init_output)
if(NOT init_rc EQUAL 0)
  fail("`rrgen init ${NAME}` failed (exit ${init_rc}):\n${init_output}")
endif()
expect_files("${project}" "rrgen init ${NAME}" "${init_output}" CMakeLists.txt reconcilers/${ident}.yaml
  src/${ident}_hooks.hpp src/${ident}_hooks.cpp tests/${ident}/greeting_test.cpp tests/${ident}/config_test.cpp)

configure_project(configure "${project}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring the project ${NAME} failed:\n${configure_output}")
endif()
build_project(build "${build}")
test_project("${build}" 6)

# The deploy config names the project in kebab-case, as the API server requires.
set(config "${build}/${ident}_generated/config")
file(GLOB_RECURSE config_files "${config}/*.yaml")
if(NOT config_files)
  fail("the build generated no ${config}/*.yaml")
endif()
set(config_text "")
foreach(file IN LISTS config_files)
  file(READ "${file}" text)
  string(APPEND config_text "${text}")
endforeach()
foreach(expected IN ITEMS "namespace: ${dns}-system" "name: ${dns}-controller-manager" "app.kubernetes.io/name: ${dns}")
  string(FIND "${config_text}" "${expected}" at)
  if(at EQUAL -1)
    fail("no '${expected}' in ${config}")
  endif()
endforeach()
if(config_text MATCHES "name: [a-z0-9-]*_")
  fail("a name with '_' in ${config}:\n${CMAKE_MATCH_0}")
endif()
