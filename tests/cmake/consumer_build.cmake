# cmake.consumer.build: tests/cmake/consumer/, a project of its own that uses the installed package
# (find_package(rrgen CONFIG) + add_reconciler), configures, builds and passes its tests.
# The copy in WORK/consumer/src and the build in WORK/consumer/build are what the later
# cmake.consumer.* tests rebuild.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(src "${WORK}/consumer/src")
set(build "${WORK}/consumer/build")
file(REMOVE_RECURSE "${WORK}/consumer")
file(COPY "${SOURCE}/consumer/" DESTINATION "${src}")

configure_project(configure "${src}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring the consumer failed:\n${configure_output}")
endif()
# The package found must be the one just installed, not another rrgen on the machine.
file(STRINGS "${build}/CMakeCache.txt" found_dir REGEX "^rrgen_DIR:")
file(REAL_PATH "${PREFIX}/lib/cmake/rrgen" expected_dir)
if(NOT found_dir MATCHES "=${expected_dir}$")
  fail("find_package(rrgen) found '${found_dir}', expected ${expected_dir}")
endif()

build_project(build "${build}")
if(NOT build_output MATCHES "rrgen: reconciler gizmo")
  fail("the build did not run rrgen:\n${build_output}")
endif()
foreach(file IN ITEMS gizmo_types.hpp gizmo_reconciler.hpp gizmo_dies.hpp config/rbac/role.yaml)
  if(NOT EXISTS "${build}/gizmo_generated/${file}")
    fail("rrgen did not generate gizmo_generated/${file}")
  endif()
endforeach()

# The user tests (three cases) and the generated wiring tests.
test_project("${build}" 5)
run_ok(list "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -N)
foreach(name IN ITEMS
    "gizmo\\.GizmoGreetingReconciler/the status reports the greeting"
    "gizmo\\.GizmoNotesReconciler/creates the notes ConfigMap"
    "gizmo\\.Gizmo wiring: ")
  if(NOT list_output MATCHES "${name}")
    fail("no ctest test matches '${name}':\n${list_output}")
  endif()
endforeach()

# The operator links against the installed rr::manager and rr::local_cluster_mode, and has the flag.
set(operator "${build}/gizmo-operator")
if(NOT EXISTS "${operator}")
  fail("the consumer built no gizmo-operator:\n${build_output}")
endif()
run_ok(help "${operator}" --help)
if(NOT help_output MATCHES "--local-cluster-kubeconfig")
  fail("gizmo-operator --help does not list --local-cluster-kubeconfig:\n${help_output}")
endif()
