# generator.crd.types_header: add_reconciler(TYPES_HEADER ... TYPES_GROUP ...) in a project of its
# own (cmake -P):
#   -DRRGEN=<rrgen>  -DREPO=<repository root>  -DWORK=<scratch directory>  -DNINJA=<ninja>
# The generation step only (generate_gizmo: rrgen crd, then rrgen generate; nothing is compiled,
# so rr's targets are stand-ins). It proves: the CRD is written from the header and the generated
# types follow it; a second build does nothing; an edit of the header, or of a header it includes
# (the depfile), writes the CRD again and regenerates; TYPES_HEADER without TYPES_GROUP fails to
# configure, saying so.
cmake_minimum_required(VERSION 3.25)
foreach(var RRGEN REPO WORK NINJA)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "types_header_test.cmake: -D${var}=... is required")
  endif()
endforeach()

function(fail text)
  message("generator.crd.types_header: ${text}")
  message(FATAL_ERROR "generator.crd.types_header failed (details above)")
endfunction()

function(build prefix)
  execute_process(COMMAND "${CMAKE_COMMAND}" --build "${WORK}/build" --target generate_gizmo
    RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
  if(NOT rc EQUAL 0)
    fail("the build failed (exit ${rc}):\n${output}")
  endif()
  set(${prefix}_output "${output}" PARENT_SCOPE)
endfunction()

set(project "${WORK}/project")
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${project}/src")
set(data "${CMAKE_CURRENT_LIST_DIR}/types_header")
file(COPY "${data}/gizmo_types.hpp" "${data}/gizmo_status.hpp" DESTINATION "${project}")
file(COPY "${REPO}/tests/cmake/consumer/reconciler.yaml" DESTINATION "${project}")
file(COPY "${REPO}/tests/cmake/consumer/src/gizmo_hooks.hpp" "${REPO}/tests/cmake/consumer/src/gizmo_hooks.cpp"
  DESTINATION "${project}/src")
file(WRITE "${project}/CMakeLists.txt" "
cmake_minimum_required(VERSION 3.25)
project(types_header LANGUAGES CXX)
# Stand-ins for the rr targets add_reconciler links (nothing is compiled); rr::core brings the
# runtime's headers, which rrgen crd needs.
foreach(t core validation client controller reconcilers builtin schema_cel testing webhook manifest_check)
  add_library(rr_\${t} INTERFACE)
  add_library(rr::\${t} ALIAS rr_\${t})
endforeach()
target_include_directories(rr_core INTERFACE \"${REPO}/runtime/core/include\")
set(RRGEN_EXECUTABLE \"${RRGEN}\")
include(\"${REPO}/cmake/RrgenReconciler.cmake\")
add_reconciler(gizmo SPEC reconciler.yaml TYPES_HEADER gizmo_types.hpp TYPES_GROUP consumer.rrgen.dev
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp NO_TESTS)
")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${project}" -B "${WORK}/build" -G Ninja "-DCMAKE_MAKE_PROGRAM=${NINJA}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
if(NOT rc EQUAL 0)
  fail("configuring failed (exit ${rc}):\n${output}")
endif()

set(generated "${WORK}/build/gizmo_generated")
build(first)
if(NOT first_output MATCHES "rrgen: CRD of gizmo's types")
  fail("the first build did not run rrgen crd:\n${first_output}")
endif()
if(NOT EXISTS "${generated}/crds/gizmo_crds.yaml")
  fail("no ${generated}/crds/gizmo_crds.yaml after the build:\n${first_output}")
endif()
file(READ "${generated}/crds/gizmo_crds.yaml" crd)
if(NOT crd MATCHES "name: gizmos.consumer.rrgen.dev" OR NOT crd MATCHES "default: world")
  fail("the CRD is not Gizmo's:\n${crd}")
endif()
file(READ "${generated}/gizmo/v1/gizmo.hpp" types)
if(NOT types MATCHES "greeting")
  fail("the generated types lack status.greeting:\n${types}")
endif()

build(again)
if(NOT again_output MATCHES "no work to do")
  fail("a second build did work:\n${again_output}")
endif()

# An edit of the types header: the CRD and the types follow.
file(READ "${project}/gizmo_types.hpp" header)
string(REPLACE "rr::Optional<std::string> name;" "rr::Optional<std::string> name;\n  rr::Optional<std::int32_t> volume;"
  header "${header}")
file(WRITE "${project}/gizmo_types.hpp" "${header}")
build(edited)
file(READ "${generated}/gizmo/v1/gizmo.hpp" types)
if(NOT edited_output MATCHES "rrgen: CRD of gizmo's types" OR NOT types MATCHES "volume")
  fail("an edit of the types header did not reach the generated types:\n${edited_output}")
endif()

# An edit of a header it includes (found through rrgen crd's depfile).
file(READ "${project}/gizmo_status.hpp" status)
string(REPLACE "rr::Optional<std::string> greeting;" "rr::Optional<std::string> greeting;\n  rr::Optional<std::string> mood;"
  status "${status}")
file(WRITE "${project}/gizmo_status.hpp" "${status}")
build(included)
file(READ "${generated}/gizmo/v1/gizmo.hpp" types)
if(NOT included_output MATCHES "rrgen: CRD of gizmo's types" OR NOT types MATCHES "mood")
  fail("an edit of a header the types header includes did not reach the generated types:\n${included_output}")
endif()
# TYPES_HEADER without TYPES_GROUP: the configure step says what is missing.
file(READ "${project}/CMakeLists.txt" lists)
string(REPLACE " TYPES_GROUP consumer.rrgen.dev" "" lists "${lists}")
file(WRITE "${WORK}/no_group/CMakeLists.txt" "${lists}")
file(COPY "${project}/gizmo_types.hpp" "${project}/gizmo_status.hpp" "${project}/reconciler.yaml" "${project}/src"
  DESTINATION "${WORK}/no_group")
execute_process(COMMAND "${CMAKE_COMMAND}" -S "${WORK}/no_group" -B "${WORK}/no_group/build" -G Ninja
  "-DCMAKE_MAKE_PROGRAM=${NINJA}" RESULT_VARIABLE rc OUTPUT_VARIABLE output ERROR_VARIABLE output)
string(REGEX REPLACE "[ \n]+" " " flat "${output}")
if(rc EQUAL 0 OR NOT flat MATCHES "TYPES_HEADER needs TYPES_GROUP <group>")
  fail("TYPES_HEADER without TYPES_GROUP configured (exit ${rc}) or said something else:\n${output}")
endif()
message("generator.crd.types_header: passed")
