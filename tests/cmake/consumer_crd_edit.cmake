# cmake.consumer.crd_edit: rrgen's inputs drive the build exactly.
# 1. A touched (unchanged) CRD re-runs rrgen, which rewrites nothing, so nothing compiles; and the
#    build after that does nothing at all.
# 2. A CRD that gains a property re-runs rrgen and recompiles what includes the generated types,
#    but not the user's translation unit that includes no generated header (banner.cpp); the
#    tests still pass.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(src "${WORK}/consumer/src")
set(build "${WORK}/consumer/build")
set(crd "${src}/crds/gizmos.yaml")

file(TOUCH "${crd}")
build_project(touched "${build}")
if(NOT touched_output MATCHES "rrgen: reconciler gizmo")
  fail("touching the CRD did not re-run rrgen:\n${touched_output}")
endif()
compiled_objects(objects "${touched_output}")
if(objects OR touched_output MATCHES "Linking")
  fail("touching the CRD (content unchanged) rebuilt something:\n${touched_output}")
endif()
build_project(after_touch "${build}")
if(NOT after_touch_output MATCHES "ninja: no work to do")
  fail("the build after the touched CRD's did work:\n${after_touch_output}")
endif()

# The CRD carries a marker line where a property can be added at the right indentation.
file(READ "${crd}" text)
set(marker "# cmake.consumer.crd_edit adds a property here")
string(FIND "${text}" "${marker}" at)
if(at EQUAL -1)
  fail("${crd} has no line '${marker}'")
endif()
string(REGEX MATCH "\n( *)${marker}" indent_match "${text}")
set(indent "${CMAKE_MATCH_1}")
string(REPLACE "${marker}"
  "colour:\n${indent}  type: string\n${indent}  description: Added by cmake.consumer.crd_edit." text "${text}")
file(WRITE "${crd}" "${text}")

build_project(edited "${build}")
if(NOT edited_output MATCHES "rrgen: reconciler gizmo")
  fail("editing the CRD did not re-run rrgen:\n${edited_output}")
endif()
compiled_objects(objects "${edited_output}")
if(NOT objects MATCHES "gizmo_types\\.cpp")
  fail("editing the CRD did not recompile the generated types; compiled: ${objects}\n${edited_output}")
endif()
if(objects MATCHES "banner\\.cpp")
  fail("editing the CRD recompiled banner.cpp, which includes no generated header:\n${edited_output}")
endif()
file(GLOB_RECURSE headers "${build}/gizmo_generated/*.hpp")
set(found FALSE)
foreach(h IN LISTS headers)
  file(STRINGS "${h}" colour REGEX "colour")
  if(colour)
    set(found TRUE)
  endif()
endforeach()
if(NOT found)
  fail("no generated header mentions the added property 'colour'")
endif()
test_project("${build}" 5)
