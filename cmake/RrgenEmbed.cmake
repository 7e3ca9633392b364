# rrgen_embed_files(OUTPUT <file.cpp> BASE_DIR <dir> FILES <file>... [NAMESPACE <ns> HEADER <path>])
#
# Compiles data files into a program: writes <file.cpp> defining rrgen::embedded_files() (see
# generator/src/support/embedded.hpp), one entry per file, keyed by its path relative to BASE_DIR and
# sorted by it. The source is rewritten at build time whenever a listed file changes. NAMESPACE and
# HEADER put the same two functions (and their EmbeddedFile struct, which HEADER declares) in
# another namespace, for a library other than the generator (the local cluster's OpenAPI facts).
function(rrgen_embed_files)
  cmake_parse_arguments(PARSE_ARGV 0 ARG "" "OUTPUT;BASE_DIR;NAMESPACE;HEADER" "FILES")
  if(ARG_UNPARSED_ARGUMENTS OR NOT ARG_OUTPUT OR NOT ARG_BASE_DIR)
    message(SEND_ERROR "rrgen_embed_files: usage: OUTPUT <file.cpp> BASE_DIR <dir> FILES <file>...")
    return()
  endif()
  set(relative "")
  foreach(f IN LISTS ARG_FILES)
    file(RELATIVE_PATH rel "${ARG_BASE_DIR}" "${f}")
    list(APPEND relative "${rel}")
  endforeach()
  list(SORT relative)
  string(REPLACE ";" "|" relative_arg "${relative}")
  add_custom_command(
    OUTPUT "${ARG_OUTPUT}"
    COMMAND "${CMAKE_COMMAND}" "-DBASE_DIR=${ARG_BASE_DIR}" "-DFILES=${relative_arg}" "-DOUTPUT=${ARG_OUTPUT}"
            "-DNAMESPACE=${ARG_NAMESPACE}" "-DHEADER=${ARG_HEADER}"
            -P "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_files.cmake"
    DEPENDS ${ARG_FILES} "${CMAKE_CURRENT_FUNCTION_LIST_DIR}/embed_files.cmake"
    COMMENT "Embedding data files into ${ARG_OUTPUT}"
    VERBATIM)
endfunction()
