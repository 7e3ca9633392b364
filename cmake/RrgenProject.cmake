# rrgen_add_project_config(<target> INPUTS <file>... [OUT <dir>])
#
# The deploy tree of a project `rrgen init` made, every kind in one operator: at build time
# `rrgen project-config --dir <this directory> --out <dir>` writes <dir>/config/ and
# <dir>/dist/install.yaml (docs/deploy-config.md, "A project of several kinds"). <target> builds it
# as part of `all`. INPUTS: every file it reads (rrgen/kinds.cmake, each kind's spec and CRD), so
# an edit of one regenerates it. OUT defaults to ${CMAKE_BINARY_DIR}/deploy. rrgen/kinds.cmake
# calls this; it is rewritten by `rrgen create api`.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/RrgenGenerate.cmake")

function(rrgen_add_project_config target)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "OUT" "INPUTS")
  if(ARG_UNPARSED_ARGUMENTS)
    message(FATAL_ERROR "rrgen_add_project_config(${target}): unexpected arguments '${ARG_UNPARSED_ARGUMENTS}'")
  endif()
  if(NOT ARG_OUT)
    set(ARG_OUT "${CMAKE_BINARY_DIR}/deploy")
  endif()
  set(inputs "")
  foreach(f IN LISTS ARG_INPUTS)
    get_filename_component(abs "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    list(APPEND inputs "${abs}")
  endforeach()
  set(outputs "${ARG_OUT}/dist/install.yaml" "${ARG_OUT}/config/default/kustomization.yaml")
  _rrgen_add_generate_command(CALLER "rrgen_add_project_config(${target})"
    OUTPUTS ${outputs}
    INPUTS ${inputs}
    ARGS project-config --dir "${CMAKE_CURRENT_SOURCE_DIR}" --out "${ARG_OUT}" --quiet
    COMMENT "rrgen: the project's deploy tree (${ARG_OUT}/dist/install.yaml)")
  add_custom_target(${target} ALL DEPENDS ${outputs})
endfunction()
