# The one custom command every rrgen CMake function (rrgen_add_types, add_reconciler) builds on:
# which rrgen to run, and how to run it so that builds are exact and incremental.
#
#   _rrgen_add_generate_command(CALLER <text> OUTPUTS <file>... [DEPFILE <file>] INPUTS <file>...
#                               ARGS <arg>... COMMENT <text>)
#
# - The tool is rrgen::rrgen (an ALIAS in rrgen's own build, an imported target when found with
#   find_package(rrgen)), or the cache variable RRGEN_EXECUTABLE when it is set, which is
#   required when cross-compiling (the imported rrgen then runs on the target, not the host).
# - The tool is in DEPENDS, so rebuilding rrgen regenerates (COMMAND alone gives only an
#   order dependency); the inputs are in DEPENDS and rrgen's depfile names whatever else it read.
# - rrgen writes only files whose content changed, and Ninja's restat then skips every compile
#   downstream of an unchanged output.
# - Generated sources stay out of unity builds: they are large and include each other.
include_guard(GLOBAL)

set(RRGEN_EXECUTABLE "" CACHE FILEPATH
  "Host rrgen to run instead of the rrgen::rrgen target (required when cross-compiling)")

# Sets <out_command> to the command word that runs rrgen and <out_depends> to what the custom
# command must depend on for it; reports a SEND_ERROR naming <caller> and returns empty when there
# is no usable rrgen.
function(_rrgen_tool caller out_command out_depends)
  set(${out_command} "" PARENT_SCOPE)
  set(${out_depends} "" PARENT_SCOPE)
  if(RRGEN_EXECUTABLE)
    if(NOT EXISTS "${RRGEN_EXECUTABLE}")
      message(SEND_ERROR "${caller}: RRGEN_EXECUTABLE '${RRGEN_EXECUTABLE}' does not exist")
      return()
    endif()
    set(${out_command} "${RRGEN_EXECUTABLE}" PARENT_SCOPE)
    set(${out_depends} "${RRGEN_EXECUTABLE}" PARENT_SCOPE)
  elseif(CMAKE_CROSSCOMPILING)
    message(SEND_ERROR "${caller}: cross-compiling needs an rrgen that runs on the build machine: "
      "set RRGEN_EXECUTABLE to its path (e.g. -DRRGEN_EXECUTABLE=/usr/bin/rrgen)")
  elseif(TARGET rrgen::rrgen)
    set(${out_command} rrgen::rrgen PARENT_SCOPE)
    set(${out_depends} rrgen::rrgen PARENT_SCOPE)
  else()
    message(SEND_ERROR "${caller}: there is no rrgen::rrgen target: call "
      "find_package(rrgen CONFIG REQUIRED) first, or set RRGEN_EXECUTABLE")
  endif()
endfunction()

function(_rrgen_add_generate_command)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "CALLER;DEPFILE;COMMENT" "OUTPUTS;INPUTS;ARGS")
  _rrgen_tool("${ARG_CALLER}" tool tool_depends)
  if(NOT tool)
    return()
  endif()
  # A command that reads no files (`rrgen dies --builtin`) takes no DEPFILE: its depfile would
  # have no prerequisites, which CMake transforms into an empty file and Ninja takes for a missing
  # one, so the command would run in every build.
  set(depfile_args "")
  set(depfile_option "")
  if(ARG_DEPFILE)
    set(depfile_args --depfile "${ARG_DEPFILE}")
    set(depfile_option DEPFILE "${ARG_DEPFILE}")
  endif()
  add_custom_command(
    OUTPUT ${ARG_OUTPUTS}
    COMMAND ${tool} ${ARG_ARGS} ${depfile_args}
    DEPENDS ${tool_depends} ${ARG_INPUTS}
    ${depfile_option}
    COMMENT "${ARG_COMMENT}"
    VERBATIM)
  set_source_files_properties(${ARG_OUTPUTS} PROPERTIES SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()

# Sets <out> to rr::schema_cel when a schema file may hold CEL rules or junctors, which rrgen then
# embeds in the kind's validate(); else to nothing, so ordinary generated types link rr::core
# alone. A false match (the words in a description) costs only an unused static library. An edit
# of a schema re-runs the configure step, which decides again.
function(_rrgen_rules_libraries out)
  set(libs "")
  foreach(f IN LISTS ARGN)
    set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${f}")
    file(READ "${f}" text)
    if(text MATCHES "x-kubernetes-validations|allOf|anyOf|oneOf|\"not\"|[ \t]not:")
      set(libs rr::schema_cel)
    endif()
  endforeach()
  set(${out} "${libs}" PARENT_SCOPE)
endfunction()
