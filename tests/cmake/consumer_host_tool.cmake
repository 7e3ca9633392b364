# cmake.consumer.host_tool: when cross-compiling, add_reconciler() runs the host rrgen named by
# RRGEN_EXECUTABLE, never the imported rrgen::rrgen (built for the target), and says so when it
# is not set. CMAKE_SYSTEM_NAME makes the configuration a cross one (the compiler stays the host's).
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(src "${WORK}/host_tool/src")
file(REMOVE_RECURSE "${WORK}/host_tool")
file(COPY "${SOURCE}/consumer/" DESTINATION "${src}")

configure_project(without "${src}" "${WORK}/host_tool/without" -DCMAKE_SYSTEM_NAME=Linux)
string(REGEX REPLACE "[ \n]+" " " flat "${without_output}")
if(without_rc EQUAL 0 OR NOT flat MATCHES
   "add_reconciler\\(gizmo\\): cross-compiling needs an rrgen that runs on the build machine: set RRGEN_EXECUTABLE")
  fail("cross-compiling without RRGEN_EXECUTABLE: exit ${without_rc}:\n${without_output}")
endif()

# A host rrgen that leaves a trace of each run.
set(log "${WORK}/host_tool/host-rrgen.log")
set(wrapper "${WORK}/host_tool/host-rrgen")
file(WRITE "${wrapper}" "#!/bin/sh\necho \"$*\" >> '${log}'\nexec '${PREFIX}/bin/rrgen' \"$@\"\n")
file(CHMOD "${wrapper}" PERMISSIONS OWNER_READ OWNER_WRITE OWNER_EXECUTE)
set(build "${WORK}/host_tool/build")
configure_project(with "${src}" "${build}" -DCMAKE_SYSTEM_NAME=Linux "-DRRGEN_EXECUTABLE=${wrapper}")
if(NOT with_rc EQUAL 0)
  fail("cross-compiling with RRGEN_EXECUTABLE did not configure:\n${with_output}")
endif()
run_ok(rbac "${CMAKE_COMMAND}" --build "${build}" --target gizmo_rbac)
if(NOT EXISTS "${log}")
  fail("building gizmo_rbac did not run RRGEN_EXECUTABLE:\n${rbac_output}")
endif()
file(READ "${log}" runs)
if(NOT runs MATCHES "^generate --quiet --spec [^\n]*reconciler.yaml [^\n]*--stem gizmo")
  fail("RRGEN_EXECUTABLE ran as: ${runs}")
endif()
if(NOT EXISTS "${build}/gizmo_generated/config/rbac/role.yaml")
  fail("no config/rbac/role.yaml after building gizmo_rbac")
endif()
