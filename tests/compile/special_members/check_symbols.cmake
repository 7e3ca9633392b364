# compile.special_members.out_of_line: the object of copies_deployment.cpp defines Deployment's
# own copy constructor (the unit did copy a kind) and no special member of a struct nested in it
# (those are out of line, in the generated sources).
#
#   cmake -DNM=<nm> -DOBJECT=<copies_deployment.cpp.o> -P check_symbols.cmake
foreach(var NM OBJECT)
  if(NOT DEFINED ${var})
    message(FATAL_ERROR "check_symbols: -D${var}=... is required")
  endif()
endforeach()
execute_process(COMMAND "${NM}" -C --defined-only "${OBJECT}" OUTPUT_VARIABLE symbols RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "check_symbols: ${NM} ${OBJECT} failed (${rc})")
endif()
if(NOT symbols MATCHES "k8s::apps::v1::Deployment::Deployment\\(k8s::apps::v1::Deployment const&\\)")
  message(FATAL_ERROR "check_symbols: ${OBJECT} does not define Deployment's copy constructor: the unit did not copy a kind")
endif()
set(nested "")
foreach(struct DeploymentSpec DeploymentStatus PodTemplateSpec PodSpec Container Volume)
  if(symbols MATCHES "k8s::[a-z0-9_:]+::${struct}::(${struct}|~${struct}|operator=)\\(")
    list(APPEND nested ${struct})
  endif()
endforeach()
if(nested)
  message(FATAL_ERROR "check_symbols: copying a Deployment defined special members of nested structs in the user's unit: ${nested}"
                      " (rr::Optional must reach them through rr_special_member, docs/types.md#compile-time)")
endif()
message(STATUS "check_symbols: Deployment's special members only; nested structs' are out of line")
