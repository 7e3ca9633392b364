# cmake.init: what `rrgen init` creates configures against the installed rrgen, builds (the
# operator `manager` too), and passes its tests as it is, with no file touched; and init refuses
# to write into a directory that is not empty. It configures through the project's CMakePresets.json
# (the `dev` preset, with this build's compiler and ccache added), so cmake.init.run's
# `cmake --workflow --preset run` (init_run.sh) reuses the build this test leaves in <project>/build.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(project "${WORK}/init/widget")
set(build "${project}/build")
file(REMOVE_RECURSE "${WORK}/init")

string(TIMESTAMP t0 "%s")
run_ok(init "${PREFIX}/bin/rrgen" init widget --dir "${project}")
expect_files("${project}" "rrgen init" "${init_output}" CMakeLists.txt CMakePresets.json src/main.cpp rrgen/kinds.cmake
  rrgen/kinds.hpp reconcilers/widget.yaml crds/widgets.yaml samples/widget.yaml README.md
  src/widget_hooks.hpp src/widget_hooks.cpp tests/widget/greeting_test.cpp tests/widget/config_test.cpp)
# The next steps: one command configures, builds and runs; the presets hold the prefix rrgen is in.
string(FIND "${init_output}" "\n  cd ${project} && cmake --workflow --preset run\n" at)
if(at EQUAL -1 OR NOT init_output MATCHES "cmake --workflow --preset dev")
  fail("rrgen init's next steps do not give the workflow presets run and dev:\n${init_output}")
endif()
file(READ "${project}/CMakePresets.json" presets)
string(JSON prefix_path GET "${presets}" configurePresets 0 cacheVariables CMAKE_PREFIX_PATH)
string(JSON generator GET "${presets}" configurePresets 0 generator)
if(NOT prefix_path STREQUAL PREFIX OR NOT generator STREQUAL "Ninja")
  fail("CMakePresets.json's configure preset has generator '${generator}' and CMAKE_PREFIX_PATH "
    "'${prefix_path}', not Ninja and ${PREFIX}:\n${presets}")
endif()

# The configure preset, with the compiler and ccache of the enclosing build (as configure_project).
set(args --preset dev "-DCMAKE_MAKE_PROGRAM=${NINJA}" "-DCMAKE_CXX_COMPILER=${CXX}" "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
if(LAUNCHER)
  list(APPEND args "-DCMAKE_CXX_COMPILER_LAUNCHER=${LAUNCHER}")
endif()
execute_process(COMMAND "${CMAKE_COMMAND}" ${args} WORKING_DIRECTORY "${project}"
  RESULT_VARIABLE configure_rc OUTPUT_VARIABLE configure_output ERROR_VARIABLE configure_output)
if(NOT configure_rc EQUAL 0 OR NOT EXISTS "${build}/CMakeCache.txt")
  fail("`cmake --preset dev` in the new project failed (or did not configure ${build}):\n${configure_output}")
endif()
build_project(build "${build}")
if(NOT EXISTS "${build}/manager")
  fail("the build made no operator executable ${build}/manager:\n${build_output}")
endif()
# The generated wiring tests, and the scaffolded case of each of the two steps.
test_project("${build}" 6)
string(TIMESTAMP t1 "%s")
math(EXPR seconds "${t1} - ${t0}")
message("rrgen init, configure, build and test: ${seconds} s")

# The operator's main() takes the manager's flags and the local cluster's.
run_ok(help "${build}/manager" --help)
foreach(flag IN ITEMS --kubeconfig --leader-elect --metrics-bind-address --health-probe-bind-address
                      --local-cluster-kubeconfig)
  string(FIND "${help_output}" "${flag}" at)
  if(at EQUAL -1)
    fail("manager --help does not list ${flag}:\n${help_output}")
  endif()
endforeach()

run(again "${PREFIX}/bin/rrgen" init widget --dir "${project}")
if(again_rc EQUAL 0 OR NOT again_output MATCHES "is not an empty directory")
  fail("rrgen init into the existing project: exit ${again_rc}:\n${again_output}")
endif()
