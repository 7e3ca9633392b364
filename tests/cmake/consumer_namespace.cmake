# cmake.consumer.namespace: NAMESPACE overrides the spec's `namespace:` (rrgen generate
# --namespace): the types and the wiring land in the given C++ namespace.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(src "${WORK}/namespace/src")
set(build "${WORK}/namespace/build")
file(REMOVE_RECURSE "${WORK}/namespace")
file(COPY "${SOURCE}/consumer/" DESTINATION "${src}")
file(READ "${src}/CMakeLists.txt" text)
string(REPLACE "add_reconciler(gizmo\n" "add_reconciler(gizmo\n  NAMESPACE acme::gizmos\n" text "${text}")
file(WRITE "${src}/CMakeLists.txt" "${text}")

configure_project(configure "${src}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring with NAMESPACE failed:\n${configure_output}")
endif()
run_ok(generate "${CMAKE_COMMAND}" --build "${build}" --target generate_gizmo)
file(READ "${build}/gizmo_generated/gizmo_reconciler.hpp" wiring)
if(NOT wiring MATCHES "namespace acme::gizmos {")
  fail("the wiring is not in namespace acme::gizmos:\n${wiring}")
endif()
