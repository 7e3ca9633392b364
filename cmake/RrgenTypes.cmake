# rrgen_add_types(<target> SCHEMAS <file>... [NAMESPACE <ns>] [OUTPUT_DIR <dir>] [SHARDS <n>]
#                 [SOURCE_PART_LINES <lines>] [APPLY_CONFIGURATIONS ALL | <unit path>...])
#
# Generates C++ types from CRD manifests / OpenAPI documents at build time and compiles them into
# the static library <target> (linking rr::core, and rr::schema_cel when a schema has CEL rules or
# junctors, which validate() evaluates). Headers are included as
# "<group_ns>/<version>/<kind>.hpp" or all at once through "<target>_types.hpp".
#
# The outputs CMake sees are the fixed pair <target>_types.hpp/.cpp (rrgen --aggregate), so they
# are known at configure time; rrgen's depfile makes an edit of any schema regenerate, and rrgen
# writes only files whose content changed, so a no-op build runs nothing. With SHARDS n the units
# compile in n unity sources <target>_types_1.cpp ... _n.cpp (rrgen --shards), for APIs too large
# for one translation unit. rrgen writes a unit whose source has over 5,000 lines (Argo's Workflow)
# in parts, and the shards spread those parts too: SHARDS 3 compiles Workflow in three translation
# units instead of one. SOURCE_PART_LINES sets that threshold (rrgen --source-part-lines; 0: never).
#
# APPLY_CONFIGURATIONS also generates apply configurations (docs/runtime/38-apply-configurations.md),
# "<group_ns>/<version>/<kind>_apply.hpp", for every unit (ALL) or for the units named by path
# (k8s/apps/v1/deployment) and the units they reach, compiled by <target>_types_apply.cpp; the
# target then links rr::client (Client::apply, extract_<kind>).
#
# This is also the types-only variant of add_reconciler() (cmake/RrgenReconciler.cmake) for users
# who want just the structs; both run rrgen through cmake/RrgenGenerate.cmake.
include("${CMAKE_CURRENT_LIST_DIR}/RrgenGenerate.cmake")

function(rrgen_add_types target)
  _rrgen_types_generate(${target} sources output_dir libs ${ARGN})
  if(NOT sources)
    return()
  endif()
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${output_dir}>")
  target_link_libraries(${target} PUBLIC rr::core rr::validation ${libs})
  set_target_properties(${target} PROPERTIES RRGEN_OUTPUT_DIR "${output_dir}")
endfunction()

# _rrgen_types_generate(<target> <sources-var> <output-dir-var> <libs-var> <rrgen_add_types args>...)
# The generate step of rrgen_add_types() alone: registers the rrgen command and returns the unity
# sources it writes, their include directory and the libraries they need besides rr::core. Nothing
# is compiled; the corpus tests compile several of these in one translation unit.
function(_rrgen_types_generate target sources_var output_dir_var libs_var)
  set(${sources_var} "" PARENT_SCOPE)
  cmake_parse_arguments(PARSE_ARGV 4 ARG "" "NAMESPACE;OUTPUT_DIR;SHARDS;SOURCE_PART_LINES"
                        "SCHEMAS;APPLY_CONFIGURATIONS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "rrgen_add_types(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_SCHEMAS)
    message(SEND_ERROR "rrgen_add_types(${target}): SCHEMAS needs at least one CRD or OpenAPI file")
    return()
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${target}_generated")
  endif()
  set(name "${target}_types")
  set(schemas "")
  foreach(s IN LISTS ARG_SCHEMAS)
    get_filename_component(abs "${s}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(NOT EXISTS "${abs}")
      message(SEND_ERROR "rrgen_add_types(${target}): schema file '${s}' does not exist")
    endif()
    list(APPEND schemas "${abs}")
  endforeach()
  set(ns_args "")
  if(ARG_NAMESPACE)
    set(ns_args --namespace "${ARG_NAMESPACE}")
  endif()
  # SHARDS n: the units compile in n unity sources instead of one (a large API, e.g. rr::builtin).
  set(sources "${ARG_OUTPUT_DIR}/${name}.cpp")
  set(shard_args "")
  if(ARG_SHARDS)
    set(shard_args --shards ${ARG_SHARDS})
    foreach(i RANGE 1 ${ARG_SHARDS})
      list(APPEND sources "${ARG_OUTPUT_DIR}/${name}_${i}.cpp")
    endforeach()
  endif()
  if(DEFINED ARG_SOURCE_PART_LINES)
    if(NOT ARG_SOURCE_PART_LINES MATCHES "^[0-9]+$")
      message(SEND_ERROR "rrgen_add_types(${target}): SOURCE_PART_LINES takes a number of lines, not '${ARG_SOURCE_PART_LINES}'")
    endif()
    list(APPEND shard_args --source-part-lines ${ARG_SOURCE_PART_LINES})
  endif()
  set(apply_libs "")
  if(ARG_APPLY_CONFIGURATIONS)
    if(ARG_APPLY_CONFIGURATIONS STREQUAL "ALL")
      set(apply_units all)
    else()
      list(JOIN ARG_APPLY_CONFIGURATIONS "," apply_units)
    endif()
    list(APPEND shard_args --apply-configurations "${apply_units}")
    list(APPEND sources "${ARG_OUTPUT_DIR}/${name}_apply.cpp")
    set(apply_libs rr::client)
  endif()
  _rrgen_add_generate_command(CALLER "rrgen_add_types(${target})"
    OUTPUTS "${ARG_OUTPUT_DIR}/${name}.hpp" ${sources}
    DEPFILE "${ARG_OUTPUT_DIR}/${name}.d"
    INPUTS ${schemas}
    ARGS types --quiet --out "${ARG_OUTPUT_DIR}" --aggregate "${name}" ${shard_args} ${ns_args} ${schemas}
    COMMENT "rrgen: C++ types for ${target}")
  _rrgen_rules_libraries(rules_libs ${schemas})
  set(${sources_var} "${sources}" PARENT_SCOPE)
  set(${output_dir_var} "${ARG_OUTPUT_DIR}" PARENT_SCOPE)
  list(APPEND rules_libs ${apply_libs})
  set(${libs_var} "${rules_libs}" PARENT_SCOPE)
endfunction()

# rrgen_add_builtin_apply_configurations(<target> KINDS ALL | <unit path>... [OUTPUT_DIR <dir>]
#                                        [SHARDS <n>])
#
# The apply configurations of the runtime's built-in kinds (rr::builtin holds their types),
# generated at build time by `rrgen types --builtin` into the static library <target>, which links
# rr::builtin and rr::client: for KINDS k8s/apps/v1/deployment k8s/core/v1/service, the headers
# "k8s/apps/v1/deployment_apply.hpp" (k8s::apps::v1::DeploymentApply, extract_deployment) and
# "k8s/core/v1/service_apply.hpp", with the configurations of every struct they reach; KINDS ALL:
# every kind's (rr::builtin_apply holds them all already, docs/types.md "Apply configurations").
# "<target>_apply.hpp" declares their table of kinds, <target>_apply_kinds() (rr::ApplyKindCodec,
# rr/client/apply_kind_codec.hpp). SHARDS n compiles the units in n unity sources (rrgen --shards).
function(rrgen_add_builtin_apply_configurations target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUTPUT_DIR;SHARDS" "KINDS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(SEND_ERROR "rrgen_add_builtin_apply_configurations(${target}): unexpected arguments: ${ARG_UNPARSED_ARGUMENTS}")
  endif()
  if(NOT ARG_KINDS)
    message(SEND_ERROR "rrgen_add_builtin_apply_configurations(${target}): KINDS needs ALL or at least one unit path, "
      "e.g. k8s/apps/v1/deployment")
    return()
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${target}_generated")
  endif()
  if(ARG_KINDS STREQUAL "ALL")
    set(units all)
  else()
    list(JOIN ARG_KINDS "," units)
  endif()
  set(sources "${ARG_OUTPUT_DIR}/${target}_apply.cpp")
  set(shard_args "")
  if(DEFINED ARG_SHARDS)
    if(NOT ARG_SHARDS MATCHES "^[1-9][0-9]?[0-9]?$")
      message(SEND_ERROR "rrgen_add_builtin_apply_configurations(${target}): SHARDS takes a number from 1 to 999, not '${ARG_SHARDS}'")
      return()
    endif()
    set(shard_args --shards ${ARG_SHARDS})
    foreach(i RANGE 1 ${ARG_SHARDS})
      list(APPEND sources "${ARG_OUTPUT_DIR}/${target}_apply_${i}.cpp")
    endforeach()
  endif()
  # rrgen reads no file here (the built-in schemas are in the binary): no depfile.
  _rrgen_add_generate_command(CALLER "rrgen_add_builtin_apply_configurations(${target})"
    OUTPUTS "${ARG_OUTPUT_DIR}/${target}_apply.hpp" ${sources}
    ARGS types --builtin --quiet --out "${ARG_OUTPUT_DIR}" --aggregate "${target}" ${shard_args}
      --apply-configurations "${units}"
    COMMENT "rrgen: apply configurations of built-in kinds for ${target}")
  add_library(${target} STATIC ${sources})
  target_include_directories(${target} PUBLIC "$<BUILD_INTERFACE:${ARG_OUTPUT_DIR}>")
  target_link_libraries(${target} PUBLIC rr::builtin rr::client)
  set_target_properties(${target} PROPERTIES RRGEN_OUTPUT_DIR "${ARG_OUTPUT_DIR}")
endfunction()
