# cmake.init: what `rrgen init` creates configures against the installed rrgen, builds, and passes
# its tests as it is, with no file touched; and init refuses to write into a directory that is
# not empty.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(project "${WORK}/init/widget")
set(build "${WORK}/init/build")
file(REMOVE_RECURSE "${WORK}/init")

run_ok(init "${PREFIX}/bin/rrgen" init widget --dir "${project}")
expect_files("${project}" "rrgen init" "${init_output}" CMakeLists.txt reconciler.yaml crds/widgets.yaml README.md
  src/widget_hooks.hpp src/widget_hooks.cpp tests/greeting_test.cpp tests/config_test.cpp)

configure_project(configure "${project}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring the new project failed:\n${configure_output}")
endif()
build_project(build "${build}")
# The generated wiring tests, and the scaffolded case of each of the two steps.
test_project("${build}" 6)

run(again "${PREFIX}/bin/rrgen" init widget --dir "${project}")
if(again_rc EQUAL 0 OR NOT again_output MATCHES "is not an empty directory")
  fail("rrgen init into the existing project: exit ${again_rc}:\n${again_output}")
endif()
