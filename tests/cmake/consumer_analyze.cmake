# cmake.consumer.analyze: add_reconciler(... ANALYZE) against the installed rrgen. A hook that
# reads a Secret the spec grants nothing on fails the build with the call's file:line:col; a
# +kubebuilder:rbac marker above it makes the build pass (with the rbac-marker-only warning: the
# spec's role.yaml still lacks the rule), and config/rbac/analyzed_role.yaml then grants it. An
# edit of the hook runs the analysis again (its depfile), a no-op build does not.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(src "${WORK}/analyze/src")
set(build "${WORK}/analyze/build")
file(REMOVE_RECURSE "${WORK}/analyze")
file(COPY "${SOURCE}/consumer/" DESTINATION "${src}")
file(READ "${src}/CMakeLists.txt" text)
string(REPLACE "add_reconciler(gizmo\n" "add_reconciler(gizmo\n  ANALYZE\n" text "${text}")
file(WRITE "${src}/CMakeLists.txt" "${text}")

# The hook's own call, at a line and column this script knows.
file(READ "${src}/src/gizmo_hooks.cpp" hooks)
set(reader "\n#include \"k8s/core/v1/secret.hpp\"\n\nk8s::core::v1::Secret read_password(rr::Client& client) {\n  return client.get<k8s::core::v1::Secret>(\"gizmos\", \"password\");\n}\n")
file(WRITE "${src}/src/gizmo_hooks.cpp" "${hooks}${reader}")
string(REGEX MATCHALL "\n" newlines "${hooks}")
list(LENGTH newlines lines)
math(EXPR call_line "${lines} + 5")

configure_project(configure "${src}" "${build}" -DCMAKE_EXPORT_COMPILE_COMMANDS=ON)
if(NOT configure_rc EQUAL 0)
  fail("configuring with ANALYZE failed:\n${configure_output}")
endif()
run(build "${CMAKE_COMMAND}" --build "${build}" --target gizmo_analyze)
if(build_rc EQUAL 0)
  fail("the build passed with a call no rule grants:\n${build_output}")
endif()
if(NOT build_output MATCHES "gizmo_hooks\\.cpp:${call_line}:17: error: rr::Client::get<k8s::core::v1::Secret> needs 'get' on 'secrets'[^\n]*\\[rbac-ungranted-call\\]")
  fail("the build did not name the call at gizmo_hooks.cpp:${call_line}:17:\n${build_output}")
endif()

# A marker grants it: the build passes, and the analysed role holds the rule.
file(WRITE "${src}/src/gizmo_hooks.cpp"
  "${hooks}\n// +kubebuilder:rbac:groups=\"\",resources=secrets,verbs=get\n${reader}")
run_ok(build "${CMAKE_COMMAND}" --build "${build}")
if(NOT build_output MATCHES "rbac-marker-only")
  fail("no rbac-marker-only warning for the call only the marker grants:\n${build_output}")
endif()
file(READ "${build}/gizmo_generated/config/rbac/analyzed_role.yaml" role)
if(NOT role MATCHES "\n  - secrets\n")
  fail("analyzed_role.yaml does not grant get on secrets:\n${role}")
endif()

run_ok(noop "${CMAKE_COMMAND}" --build "${build}")
if(noop_output MATCHES "rrgen: analyze")
  fail("a no-op build ran the analysis again:\n${noop_output}")
endif()
