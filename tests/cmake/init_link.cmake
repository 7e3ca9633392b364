# cmake.init.link: how find_package(rrgen) links the executables of a project `rrgen init` made
# (docs/cmake.md, "How executables that use rrgen are linked"), read from each configuration's
# build.ninja (configure only): lld unless the project chose a linker or RRGEN_USE_LLD is OFF;
# --strip-debug in a configuration that compiles without -g, unless RRGEN_STRIP_DEBUG is OFF.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

set(project "${WORK}/init_link/widget")
file(REMOVE_RECURSE "${WORK}/init_link")
run_ok(init "${PREFIX}/bin/rrgen" init widget --dir "${project}")
find_program(ld_lld ld.lld)

# Configures <project> into build-<name> with ARGN; sets flags_<name> to the link flags of manager
# and widget_tests (they must agree).
function(link_flags name)
  set(build "${WORK}/init_link/build-${name}")
  configure_project(configure "${project}" "${build}" ${ARGN})
  if(NOT configure_rc EQUAL 0)
    fail("configuring with ${ARGN} failed:\n${configure_output}")
  endif()
  file(READ "${build}/build.ninja" ninja)
  string(REGEX MATCHALL "build manager[^\n]*: CXX_EXECUTABLE_LINKER[^\n]*\n([^\n]+\n)*" manager "${ninja}")
  string(REGEX MATCHALL "build widget_tests[^\n]*: CXX_EXECUTABLE_LINKER[^\n]*\n([^\n]+\n)*" tests "${ninja}")
  string(REGEX MATCH "LINK_FLAGS = [^\n]*" manager_flags "${manager}")
  string(REGEX MATCH "LINK_FLAGS = [^\n]*" tests_flags "${tests}")
  if(NOT manager_flags STREQUAL tests_flags)
    fail("${name}: manager links with '${manager_flags}', widget_tests with '${tests_flags}'")
  endif()
  set(flags_${name} " ${manager_flags} " PARENT_SCOPE)
endfunction()

# Expects <flag> in the flags of configuration <name> when <want> is true, else not.
function(expect name flag want)
  string(FIND "${flags_${name}}" " ${flag} " at)
  if(want AND at EQUAL -1)
    fail("${name}: the executables link without ${flag}: '${flags_${name}}'")
  elseif(NOT want AND NOT at EQUAL -1)
    fail("${name}: the executables link with ${flag}: '${flags_${name}}'")
  endif()
endfunction()

set(lld FALSE)
if(ld_lld)
  set(lld TRUE)
endif()
link_flags(default -DCMAKE_BUILD_TYPE=)
expect(default -fuse-ld=lld ${lld})
expect(default -Wl,--strip-debug TRUE)
link_flags(release -DCMAKE_BUILD_TYPE=Release)
expect(release -Wl,--strip-debug TRUE)
link_flags(debug -DCMAKE_BUILD_TYPE=Debug)
expect(debug -fuse-ld=lld ${lld})
expect(debug -Wl,--strip-debug FALSE)
link_flags(off -DCMAKE_BUILD_TYPE= -DRRGEN_USE_LLD=OFF -DRRGEN_STRIP_DEBUG=OFF)
expect(off -fuse-ld=lld FALSE)
expect(off -Wl,--strip-debug FALSE)
# A linker the project chose is kept (gold: installed with binutils).
link_flags(gold -DCMAKE_BUILD_TYPE=Debug -DCMAKE_EXE_LINKER_FLAGS=-fuse-ld=gold)
expect(gold -fuse-ld=lld FALSE)
