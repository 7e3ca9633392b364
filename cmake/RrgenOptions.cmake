# Project-wide compiler settings. Kept in one file so every target builds the same way.
set(CMAKE_CXX_STANDARD 20)
set(CMAKE_CXX_STANDARD_REQUIRED ON)
set(CMAKE_CXX_EXTENSIONS OFF)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
if(NOT CMAKE_BUILD_TYPE AND NOT CMAKE_CONFIGURATION_TYPES)
  set(CMAKE_BUILD_TYPE Debug CACHE STRING "Build type" FORCE)
endif()

option(RRGEN_WERROR "Treat warnings as errors" ON)
set(RRGEN_SANITIZE "" CACHE STRING "Sanitizers to build with, e.g. address,undefined or thread")

# Warning flags shared by our own code and by the compile tests of generated code.
set(RRGEN_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wshadow=local -Wnon-virtual-dtor -Wold-style-cast)
if(CMAKE_CXX_COMPILER_ID MATCHES "Clang")
  set(RRGEN_WARNING_FLAGS -Wall -Wextra -Wpedantic -Wshadow-uncaptured-local -Wnon-virtual-dtor -Wold-style-cast)
endif()
if(CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  # GCC 12 reports false -Wrestrict positives inside libstdc++'s std::string at -O2/-O3
  # (GCC bugs 105329, 105651); they would break optimised builds under -Werror.
  list(APPEND RRGEN_WARNING_FLAGS -Wno-restrict)
endif()
if(RRGEN_WERROR)
  list(APPEND RRGEN_WARNING_FLAGS -Werror)
endif()

function(rrgen_target_defaults target)
  target_compile_options(${target} PRIVATE ${RRGEN_WARNING_FLAGS})
endfunction()

# rrgen_add_fuzzer(<name> SOURCES <src>... LIBS <lib>... [INCLUDES <dir>...])
# A libFuzzer executable (clang, RRGEN_BUILD_FUZZ) with ASan + UBSan and the project's warnings;
# the .ci/run fuzz stage runs every target named fuzz_*.
function(rrgen_add_fuzzer name)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "SOURCES;LIBS;INCLUDES")
  add_executable(${name} ${ARG_SOURCES})
  if(ARG_INCLUDES)
    target_include_directories(${name} PRIVATE ${ARG_INCLUDES})
  endif()
  target_link_libraries(${name} PRIVATE ${ARG_LIBS})
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  target_link_options(${name} PRIVATE -fsanitize=fuzzer,address,undefined)
  rrgen_target_defaults(${name})
endfunction()

# Fuzz targets need the code they reach built with -fsanitize=fuzzer-no-link (coverage for
# libFuzzer) and ASan. Three ways to get that:
# - a tree whose every object is built so (CMAKE_CXX_FLAGS holds it: the fuzz preset) gives the
#   fuzz targets the regular libraries;
# - RRGEN_FUZZ_IN_PLACE (the asan preset, already ASan + UBSan) gives them the regular libraries
#   too, and rrgen_fuzz_instrument_closure() adds the coverage flag to those libraries only: the
#   rest of the tree (the apiserver, the built-in kinds, the tests) compiles 15-20% faster without it;
# - any other clang tree with RRGEN_BUILD_FUZZ compiles instrumented copies of the layers they
#   need (rr_<layer>_fuzz), so its regular libraries stay as they are.
option(RRGEN_FUZZ_IN_PLACE "In an ASan tree, instrument the libraries fuzz targets link in place (no copies)" OFF)
set(RRGEN_TREE_FUZZ_INSTRUMENTED OFF)
if(RRGEN_SANITIZE MATCHES "address" AND (RRGEN_FUZZ_IN_PLACE OR CMAKE_CXX_FLAGS MATCHES "-fsanitize=fuzzer-no-link"))
  set(RRGEN_TREE_FUZZ_INSTRUMENTED ON)
endif()

# rrgen_fuzz_instrument_closure(): with RRGEN_FUZZ_IN_PLACE, every library of the project that a
# fuzz_* executable links, directly or through other libraries, compiles with
# -fsanitize=fuzzer-no-link. Called once, after every target exists (top-level CMakeLists.txt).
function(rrgen_fuzz_instrument_closure)
  if(NOT RRGEN_FUZZ_IN_PLACE OR NOT RRGEN_BUILD_FUZZ OR CMAKE_CXX_FLAGS MATCHES "-fsanitize=fuzzer-no-link")
    return()
  endif()
  _rrgen_directory_targets("${PROJECT_SOURCE_DIR}" all)
  set(queue "")
  foreach(t IN LISTS all)
    if(t MATCHES "^fuzz_")
      get_target_property(libs ${t} LINK_LIBRARIES)
      list(APPEND queue ${libs})
    endif()
  endforeach()
  set(seen "")
  while(queue)
    list(POP_FRONT queue item)
    string(REGEX REPLACE "^\\$<(BUILD_INTERFACE|LINK_ONLY):(.*)>$" "\\2" item "${item}")
    if(NOT TARGET "${item}")
      continue()
    endif()
    get_target_property(aliased ${item} ALIASED_TARGET)
    if(aliased)
      set(item ${aliased})
    endif()
    get_target_property(imported ${item} IMPORTED)
    if(imported OR item IN_LIST seen)
      continue()
    endif()
    list(APPEND seen ${item})
    foreach(property IN ITEMS LINK_LIBRARIES INTERFACE_LINK_LIBRARIES)
      get_target_property(libs ${item} ${property})
      if(libs)
        list(APPEND queue ${libs})
      endif()
    endforeach()
    get_target_property(type ${item} TYPE)
    if(type MATCHES "^(STATIC|SHARED|OBJECT)_LIBRARY$")
      target_compile_options(${item} PRIVATE -fsanitize=fuzzer-no-link)
    endif()
  endwhile()
  list(SORT seen)
  message(STATUS "rrgen: built for libFuzzer in place: ${seen}")
endfunction()

# _rrgen_directory_targets(<dir> <out>): the targets defined in <dir> and every directory below it.
function(_rrgen_directory_targets dir out)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _rrgen_directory_targets("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out} "${targets}" PARENT_SCOPE)
endfunction()

# rrgen_fuzz_library(<layer> [PUBLIC <lib>...] [PRIVATE <lib>...]): rr_<layer>_fuzz, the library
# the layer's fuzz targets link. In an instrumented tree that is rr_<layer> itself; otherwise a copy
# of its sources built for the fuzzer, so the regular rr_<layer> stays linkable by ordinary
# executables of the same build. Called from the layer's own CMakeLists.txt.
function(rrgen_fuzz_library layer)
  cmake_parse_arguments(PARSE_ARGV 1 ARG "" "" "PUBLIC;PRIVATE")
  set(name rr_${layer}_fuzz)
  if(RRGEN_TREE_FUZZ_INSTRUMENTED)
    add_library(${name} ALIAS rr_${layer})
    return()
  endif()
  get_target_property(sources rr_${layer} SOURCES)
  add_library(${name} STATIC ${sources})
  target_include_directories(${name}
    PUBLIC ${CMAKE_CURRENT_SOURCE_DIR}/include PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/src)
  target_link_libraries(${name} PUBLIC ${ARG_PUBLIC} PRIVATE ${ARG_PRIVATE})
  target_compile_features(${name} PUBLIC cxx_std_20)
  target_compile_options(${name} PRIVATE -fsanitize=fuzzer-no-link,address,undefined)
  rrgen_target_defaults(${name})
endfunction()

if(RRGEN_SANITIZE)
  add_compile_options(-fsanitize=${RRGEN_SANITIZE} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  add_link_options(-fsanitize=${RRGEN_SANITIZE})
endif()

find_program(CCACHE_PROGRAM ccache)
if(CCACHE_PROGRAM AND NOT CMAKE_CXX_COMPILER_LAUNCHER)
  set(CMAKE_CXX_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
  set(CMAKE_C_COMPILER_LAUNCHER "${CCACHE_PROGRAM}")
endif()

# lld links the project's executables: the Debug test binaries carry hundreds of MB of debug
# information, and lld links one in under a second where GNU ld takes four or five (measured on
# rr_apiserver_tests: bfd 4.5 s, gold 2.5 s, lld 0.8 s). Linking is never cached, so this counts
# in every build, warm or cold. Only this project's targets; a consumer's link is its own choice.
option(RRGEN_USE_LLD "Link the project's executables with lld when the compiler can" ON)
if(RRGEN_USE_LLD)
  include(CheckLinkerFlag)
  check_linker_flag(CXX "-fuse-ld=lld" RRGEN_HAVE_LLD)
  if(RRGEN_HAVE_LLD)
    add_link_options(-fuse-ld=lld)
  endif()
endif()
