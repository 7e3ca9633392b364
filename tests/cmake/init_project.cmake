# cmake.init: what `rrgen init` creates configures against the installed rrgen, builds (the
# operator `manager` too), and passes its tests as it is, with no file touched; and init refuses
# to write into a directory that is not empty. cmake.init.run then runs the project's `run` target
# (init_run.sh) in the build this test leaves.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(project "${WORK}/init/widget")
set(build "${WORK}/init/build")
file(REMOVE_RECURSE "${WORK}/init")

string(TIMESTAMP t0 "%s")
run_ok(init "${PREFIX}/bin/rrgen" init widget --dir "${project}")
expect_files("${project}" "rrgen init" "${init_output}" CMakeLists.txt src/main.cpp rrgen/kinds.cmake
  rrgen/kinds.hpp reconcilers/widget.yaml crds/widgets.yaml samples/widget.yaml README.md
  src/widget_hooks.hpp src/widget_hooks.cpp tests/widget/greeting_test.cpp tests/widget/config_test.cpp)
# The next steps name the generator the configure command assumes, and where rrgen is installed.
string(FIND "${init_output}" "cmake -S ${project} -B ${project}/build -G Ninja -DCMAKE_PREFIX_PATH=${PREFIX}\n" at)
if(at EQUAL -1 OR NOT init_output MATCHES "--target run\n")
  fail("rrgen init's next steps do not say -G Ninja, the prefix ${PREFIX} and the run target:\n${init_output}")
endif()

configure_project(configure "${project}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring the new project failed:\n${configure_output}")
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
