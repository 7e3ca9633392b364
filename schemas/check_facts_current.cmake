# schemas.kubernetes_facts_current (schemas/CMakeLists.txt):
#   cmake -DRRGEN=<rrgen> -DINPUT_DIR=<reference openapi/> -DPROTO_ROOT=<reference proto/>
#         -DEXPECTED_DIR=<schemas/kubernetes-1.35> -DWORK_DIR=<scratch directory> -P check_facts_current.cmake
# Runs `rrgen openapi-facts --proto-root PROTO_ROOT` over INPUT_DIR/*.json into WORK_DIR and fails, showing the first
# differing file, unless the result is EXPECTED_DIR byte for byte (its .rrgen-manifest included).
cmake_minimum_required(VERSION 3.20)

foreach(var RRGEN INPUT_DIR PROTO_ROOT EXPECTED_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "check_facts_current.cmake: -D${var}=... is required")
  endif()
endforeach()

function(fail text)
  message("schemas.kubernetes_facts_current: ${text}")
  message(FATAL_ERROR "schemas.kubernetes_facts_current failed (details above)")
endfunction()
include("${CMAKE_CURRENT_LIST_DIR}/../tests/compare_trees.cmake")  # list_tree, diff_hint, compare_trees

file(GLOB inputs LIST_DIRECTORIES false "${INPUT_DIR}/*.json")
if(NOT inputs)
  fail("no *.json in ${INPUT_DIR}")
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
execute_process(COMMAND "${RRGEN}" openapi-facts --quiet --proto-root "${PROTO_ROOT}" --out "${WORK_DIR}" ${inputs}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  fail("rrgen openapi-facts exited with ${rc}\n${err}")
endif()
# Every property matched to its protobuf field and every field to a property (a warning otherwise).
if(err MATCHES "warning:")
  fail("rrgen openapi-facts warned:\n${err}")
endif()

list_tree("${EXPECTED_DIR}" want)
list_tree("${WORK_DIR}" got)
compare_trees("${EXPECTED_DIR}" "${want}" "${WORK_DIR}" "${got}"
              "schemas/kubernetes-1.35/ is not what rrgen openapi-facts makes of ${INPUT_DIR} now (to update it: docs/kubernetes-api-facts.md)")
