# add_reconciler(<name>
#   SPEC <reconciler.yaml> [CRDS <crd.yaml>...] [TYPES_HEADER <types.hpp>... TYPES_GROUP <group>]
#   [SOURCES <file>...] [TESTS <test.cpp>...]
#   [NAMESPACE <cpp::ns>] [OUTPUT_DIR <dir>]
#   [NO_TESTS] [TEST_PREFIX <prefix>] [TEST_LABELS <label>...]
#   [ANALYZE] [RRGEN_ARGS <arg>...])
#
# Runs `rrgen generate` on the spec and the CRDs at build time and builds the result:
#   <name>_api        STATIC  the CRDs' types (<name>_types.cpp), links rr::core (and
#                             rr::schema_cel for CRDs with CEL rules or junctors)
#   <name>            STATIC  the generated wiring (<name>_reconciler.cpp, and with `webhooks:`
#                             in the spec <name>_webhooks.cpp) and SOURCES, the user-owned hooks
#                             (<name>_hooks.hpp/.cpp); links <name>_api, rr::reconcilers,
#                             rr::builtin (and rr::webhook with webhooks)
#   <name>_tests      EXE     TESTS, the generated wiring test and a doctest main, links rr::testing;
#                             every doctest case is a ctest test named <prefix><case>
#   <name>_rbac       custom  the RBAC manifests; properties RRGEN_RBAC_FILE (config/rbac/role.yaml)
#                             and RRGEN_CONFIG_DIR (the kustomize config/ tree)
#   generate_<name>   custom  runs the generator; depend on it from other directories
#   <name>_analyze    custom  with ANALYZE: `rrgen analyze` over the .cpp SOURCES (in ALL), which
#                             writes config/rbac/analyzed_role.yaml and fails the build on a call
#                             that neither the spec nor a +kubebuilder:rbac marker grants
# With TYPES_HEADER, the kinds' CRD is written from C++ structs: `rrgen crd --group <TYPES_GROUP>`
# runs on the headers in every build where they (or a header they include) changed, and its
# output, <OUTPUT_DIR>/crds/<name>_crds.yaml, is one of the CRDs the generation reads
# (docs/crd-from-types.md).
# docs/cmake.md is the reference; the types-only variant is rrgen_add_types() (RrgenTypes.cmake).
#
# The outputs are a fixed list known at configure time: rrgen is told the file stem (--stem <name>)
# instead of deriving it from the spec. The spec, the CRDs and rrgen itself are dependencies, and
# rrgen's depfile adds whatever else it read, so an edited CRD regenerates. rrgen writes only files
# whose content changed (touching the listed outputs when anything of the set did), so a no-op
# edit compiles nothing and a real one only what includes the generated files.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/RrgenGenerate.cmake")

function(_rrgen_reconciler_keywords out_var)
  set(${out_var}
    "SPEC CRDS TYPES_HEADER TYPES_GROUP SOURCES TESTS NAMESPACE OUTPUT_DIR NO_TESTS TEST_PREFIX TEST_LABELS ANALYZE RRGEN_ARGS"
    PARENT_SCOPE)
endfunction()

# Resolves the files given after <keyword> against the current source directory into <out_var>,
# and appends to <problems_var> a message for each that does not exist: a misplaced keyword when
# it looks like one (cmake_parse_arguments files an unknown keyword after a list keyword as one
# more item of the list), else a missing file, followed by <hint>.
function(_rrgen_existing_files keyword out_var problems_var hint)
  set(result "")
  set(problems "${${problems_var}}")
  _rrgen_reconciler_keywords(keywords)
  foreach(f IN LISTS ARGN)
    get_filename_component(abs "${f}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_SOURCE_DIR}")
    if(EXISTS "${abs}" AND NOT IS_DIRECTORY "${abs}")
      list(APPEND result "${abs}")
    elseif(f MATCHES "^[A-Z][A-Z_]*$")
      list(APPEND problems "unknown keyword '${f}' (after ${keyword}): the keywords are ${keywords}")
    else()
      list(APPEND problems "${keyword} file '${f}' does not exist${hint}")
    endif()
  endforeach()
  set(${out_var} "${result}" PARENT_SCOPE)
  set(${problems_var} "${problems}" PARENT_SCOPE)
endfunction()

function(add_reconciler name)
  set(caller "add_reconciler(${name})")
  cmake_parse_arguments(PARSE_ARGV 1 ARG "NO_TESTS;ANALYZE" "SPEC;NAMESPACE;OUTPUT_DIR;TEST_PREFIX;TYPES_GROUP"
    "CRDS;TYPES_HEADER;SOURCES;TESTS;TEST_LABELS;RRGEN_ARGS")

  # ---- arguments: every problem is reported, then the call does nothing ---------------------------
  if(NOT name MATCHES "^[a-z][a-z0-9_]*$")
    message(SEND_ERROR "${caller}: the first argument is the reconciler's name, a lower-case "
      "identifier ([a-z][a-z0-9_]*): it names the targets and the files <name>_types.hpp, "
      "<name>_hooks.hpp ...")
    return()
  endif()
  if(NOT ARG_OUTPUT_DIR)
    set(ARG_OUTPUT_DIR "${CMAKE_CURRENT_BINARY_DIR}/${name}_generated")
  endif()
  get_filename_component(out "${ARG_OUTPUT_DIR}" ABSOLUTE BASE_DIR "${CMAKE_CURRENT_BINARY_DIR}")

  set(problems "")
  if(ARG_UNPARSED_ARGUMENTS)
    string(REPLACE ";" " " unparsed "${ARG_UNPARSED_ARGUMENTS}")
    _rrgen_reconciler_keywords(keywords)
    list(APPEND problems "unknown arguments '${unparsed}': the keywords are ${keywords}")
  endif()
  foreach(keyword IN LISTS ARG_KEYWORDS_MISSING_VALUES)
    list(APPEND problems "${keyword} given without a value")
  endforeach()
  foreach(t IN ITEMS ${name} ${name}_api ${name}_tests ${name}_rbac ${name}_analyze generate_${name})
    if(TARGET ${t})
      list(APPEND problems "a target named '${t}' already exists")
    endif()
  endforeach()
  if(NOT DEFINED ARG_SPEC AND NOT "SPEC" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
    list(APPEND problems "SPEC <reconciler.yaml> is required (docs/reconciler-spec.md)")
  elseif(DEFINED ARG_SPEC)
    _rrgen_existing_files(SPEC spec problems "" "${ARG_SPEC}")
  endif()
  _rrgen_existing_files(CRDS crds problems "" ${ARG_CRDS})
  _rrgen_existing_files(TYPES_HEADER types_headers problems "" ${ARG_TYPES_HEADER})
  if(ARG_TYPES_HEADER AND NOT ARG_TYPES_GROUP)
    list(APPEND problems "TYPES_HEADER needs TYPES_GROUP <group>: the API group of the kinds it declares")
  elseif(ARG_TYPES_GROUP AND NOT ARG_TYPES_HEADER)
    list(APPEND problems "TYPES_GROUP is for TYPES_HEADER <types.hpp>, which is not given")
  endif()
  # The user-owned files come from rrgen's scaffold; say how to get them (paths are relative to
  # this directory). "--scaffold ." goes last: CMake's message layout widens the space after a
  # lone "." to two. Messages hold no ';' (they are collected in a list).
  set(scaffold_command rrgen generate --spec ${ARG_SPEC} --stem ${name} --out ${out} ${ARG_CRDS} --scaffold .)
  string(REPLACE ";" " " scaffold_command "${scaffold_command}")
  string(CONCAT scaffold_hint ". The hook files and tests are created once, in "
    "${CMAKE_CURRENT_SOURCE_DIR}, by `${scaffold_command}` (or, for a new project, by `rrgen init`)")
  _rrgen_existing_files(SOURCES sources problems "${scaffold_hint}" ${ARG_SOURCES})
  # A listed test that is gone is usually one of a step the spec no longer has (the scaffold names a
  # step's test after the step and never recreates a file for a step that left): re-scaffolding
  # would not bring it back, so say to drop it from TESTS first.
  string(CONCAT tests_hint ". If the step it tested left the spec, remove the file from TESTS (or list "
    "the tests with file(GLOB ...), as a project `rrgen init` made does). The tests of the spec's current "
    "steps that do not exist yet are created, never overwritten, by `${scaffold_command}`")
  _rrgen_existing_files(TESTS tests problems "${tests_hint}" ${ARG_TESTS})

  # The generated wiring includes the user's <name>_hooks.hpp, found next to one of the SOURCES.
  set(source_dirs "")
  set(hooks_found FALSE)
  foreach(s IN LISTS sources)
    get_filename_component(dir "${s}" DIRECTORY)
    list(APPEND source_dirs "${dir}")
    if(EXISTS "${dir}/${name}_hooks.hpp")
      set(hooks_found TRUE)
    endif()
  endforeach()
  list(REMOVE_DUPLICATES source_dirs)
  if(NOT ARG_SOURCES AND NOT "SOURCES" IN_LIST ARG_KEYWORDS_MISSING_VALUES)
    string(CONCAT problem "SOURCES is missing: list the user-owned hook files "
      "(src/${name}_hooks.hpp src/${name}_hooks.cpp), which the generated wiring calls${scaffold_hint}")
    list(APPEND problems "${problem}")
  elseif(sources AND NOT hooks_found)
    string(REPLACE ";" " " source_args "${ARG_SOURCES}")
    string(CONCAT problem "no ${name}_hooks.hpp in the directory of any of the SOURCES "
      "(${source_args}): the generated wiring includes it${scaffold_hint}")
    list(APPEND problems "${problem}")
  endif()

  if(ARG_ANALYZE AND NOT CMAKE_EXPORT_COMPILE_COMMANDS)
    string(CONCAT problem "ANALYZE reads the sources' commands from compile_commands.json: set "
      "CMAKE_EXPORT_COMPILE_COMMANDS to ON (the presets do)")
    list(APPEND problems "${problem}")
  endif()

  if(problems)
    foreach(problem IN LISTS problems)
      message(SEND_ERROR "${caller}: ${problem}")
    endforeach()
    return()
  endif()
  if(NOT DEFINED ARG_TEST_PREFIX)
    set(ARG_TEST_PREFIX "${name}.")
  endif()

  # ---- the generator -----------------------------------------------------------------------------
  set(types_cpp "${out}/${name}_types.cpp")
  # The CRD kinds' apply configurations (<kind>_apply.hpp), compiled by one unity source.
  set(apply_cpp "${out}/${name}_types_apply.cpp")
  set(wiring_cpp "${out}/${name}_reconciler.cpp")
  set(wiring_test_cpp "${out}/${name}_wiring_test.cpp")
  set(rbac_file "${out}/config/rbac/role.yaml")
  set(outputs
    "${out}/${name}_types.hpp" "${types_cpp}" "${apply_cpp}"
    "${out}/${name}_reconciler.hpp" "${wiring_cpp}"
    "${wiring_test_cpp}" "${out}/${name}_dies.hpp"
    "${rbac_file}")
  # A spec with `webhooks:` also gets <name>_webhooks.hpp/.cpp (docs/reconciler-spec.md#webhooks),
  # compiled into <name> with rr::webhook. The key is looked for at configure time, and an edit of
  # the spec reconfigures.
  file(READ "${spec}" spec_text)
  set(has_webhooks FALSE)
  if(spec_text MATCHES "(^|\n)webhooks[ \t]*:")
    set(has_webhooks TRUE)
    list(APPEND outputs "${out}/${name}_webhooks.hpp" "${out}/${name}_webhooks.cpp")
  endif()
  # With `admissionPolicies:`, <name>_policies_test.cpp checks config/policy in <name>_tests
  # (docs/reconciler-spec.md#admission-policies).
  set(policies_test_cpp "")
  if(spec_text MATCHES "(^|\n)admissionPolicies[ \t]*:")
    set(policies_test_cpp "${out}/${name}_policies_test.cpp")
    list(APPEND outputs "${policies_test_cpp}")
  endif()
  set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${spec}")
  _rrgen_rules_libraries(rules_libs ${crds})
  # TYPES_HEADER: the CRD written from the structs before the generation reads it. rrgen crd finds
  # the runtime's headers through rr::core's include directories; its depfile names every header
  # the parse read, so an edit of any of them writes the CRD again (and only a changed CRD
  # regenerates what reads it).
  if(types_headers)
    _rrgen_tool("${caller}" tool tool_depends)
    set(types_crd "${out}/crds/${name}_crds.yaml")
    set(core_target rr::core)
    get_target_property(aliased rr::core ALIASED_TARGET)
    if(aliased)
      set(core_target ${aliased})
    endif()
    set(core_includes "$<FILTER:$<TARGET_PROPERTY:${core_target},INTERFACE_INCLUDE_DIRECTORIES>,INCLUDE,.>")
    add_custom_command(
      OUTPUT "${types_crd}"
      COMMAND ${tool} crd --quiet --group ${ARG_TYPES_GROUP} --out "${out}/crds" --stem ${name}_crds
        --depfile "${out}/${name}_crd.d" "-I$<JOIN:${core_includes},;-I>"
        "-I${CMAKE_CURRENT_SOURCE_DIR}" ${types_headers}
      DEPENDS ${tool_depends} ${types_headers}
      DEPFILE "${out}/${name}_crd.d"
      COMMENT "rrgen: CRD of ${name}'s types"
      COMMAND_EXPAND_LISTS
      VERBATIM)
    list(APPEND crds "${types_crd}")
    # The CEL rules and junctors that need rr::schema_cel, decided from the markers that write them.
    foreach(h IN LISTS types_headers)
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS "${h}")
      file(READ "${h}" header_text)
      if(header_text MATCHES "XValidation|IntOrString|Quantity")
        set(rules_libs rr::schema_cel)
      endif()
    endforeach()
  endif()
  set(ns_args "")
  if(ARG_NAMESPACE)
    set(ns_args --namespace "${ARG_NAMESPACE}")
  endif()
  _rrgen_add_generate_command(CALLER "${caller}"
    OUTPUTS ${outputs}
    DEPFILE "${out}/${name}.d"
    INPUTS ${spec} ${crds}
    ARGS generate --quiet --spec ${spec} --out "${out}" --stem ${name} ${ns_args} ${ARG_RRGEN_ARGS} ${crds}
    COMMENT "rrgen: reconciler ${name}")
  # Custom command outputs are visible only in this directory: targets elsewhere that need the
  # generated files depend on this one (as flatbuffers and Qt do). The targets below depend on it
  # too, so that generators other than Ninja never run the command twice in parallel.
  add_custom_target(generate_${name} DEPENDS ${outputs})

  # ---- targets -----------------------------------------------------------------------------------
  add_library(${name}_api STATIC "${types_cpp}" "${apply_cpp}" "${out}/${name}_types.hpp")
  target_include_directories(${name}_api PUBLIC "$<BUILD_INTERFACE:${out}>")
  # rr::client: the apply configurations' Client::apply and extract.
  target_link_libraries(${name}_api PUBLIC rr::core rr::validation rr::client ${rules_libs})
  add_dependencies(${name}_api generate_${name})

  add_library(${name} STATIC "${wiring_cpp}" "${out}/${name}_reconciler.hpp" ${sources})
  foreach(dir IN LISTS source_dirs)
    target_include_directories(${name} PUBLIC "$<BUILD_INTERFACE:${dir}>")
  endforeach()
  target_link_libraries(${name} PUBLIC ${name}_api rr::reconcilers rr::builtin)
  if(has_webhooks)
    target_sources(${name} PRIVATE "${out}/${name}_webhooks.cpp" "${out}/${name}_webhooks.hpp")
    target_link_libraries(${name} PUBLIC rr::webhook)
  endif()
  # `predicates:`, `watches:` or `reconcileTimeout:` (docs/reconciler-spec.md#predicates-and-watches):
  # the wiring fills rr::ControllerOptions (rr/controller/controller.hpp).
  if(spec_text MATCHES "(^|\n)[ \t-]*(predicates|watches|reconcileTimeout)[ \t]*:")
    target_link_libraries(${name} PUBLIC rr::controller)
  endif()
  # `write: apply` on a child step (docs/runtime/06-child-reconciler.md#apply-mode): a built-in
  # child's apply configuration comes from rr::builtin_apply (a CRD kind's is generated here).
  if(spec_text MATCHES "(^|\n)[ \t-]*write[ \t]*:[ \t]*apply")
    target_link_libraries(${name} PUBLIC rr::builtin_apply)
  endif()
  add_dependencies(${name} generate_${name})
  set_target_properties(${name} ${name}_api PROPERTIES RRGEN_OUTPUT_DIR "${out}")
  set_target_properties(${name} PROPERTIES RRGEN_SPEC_FILE "${spec}")  # rrgen_add_image(RECONCILER)

  add_custom_target(${name}_rbac)
  add_dependencies(${name}_rbac generate_${name})
  set_target_properties(${name}_rbac PROPERTIES
    RRGEN_RBAC_FILE "${rbac_file}" RRGEN_CONFIG_DIR "${out}/config")

  # ---- ANALYZE: the hooks' own calls, checked against the spec's rules and the markers ----------
  # Over the .cpp SOURCES only: the headers beside them are read through their includes (a header
  # given on its own is one more parse of everything it includes). The command runs once the
  # library is built, so every generated header it includes exists; its depfile names every file
  # the parse read. docs/analyze.md.
  if(ARG_ANALYZE)
    set(analyze_sources "")
    foreach(s IN LISTS sources)
      if(s MATCHES "\\.(cpp|cc|cxx)$")
        list(APPEND analyze_sources "${s}")
      endif()
    endforeach()
    set(analyzed "${out}/config/rbac/analyzed_role.yaml")
    _rrgen_tool("${caller}" tool tool_depends)
    add_custom_command(
      OUTPUT "${analyzed}"
      COMMAND ${tool} analyze --spec ${spec} --stem ${name} -p "${CMAKE_BINARY_DIR}" --format=yaml --out "${analyzed}"
        --depfile "${out}/${name}_analyze.d" ${crds} ${analyze_sources}
      DEPENDS ${tool_depends} ${spec} ${crds} ${analyze_sources} ${outputs}
      DEPFILE "${out}/${name}_analyze.d"
      COMMENT "rrgen: analyze ${name}'s hooks"
      VERBATIM)
    add_custom_target(${name}_analyze ALL DEPENDS "${analyzed}")
    add_dependencies(${name}_analyze ${name})
    add_dependencies(${name}_rbac ${name}_analyze)
    set_target_properties(${name}_rbac PROPERTIES RRGEN_ANALYZED_RBAC_FILE "${analyzed}")
  endif()

  # No tests with NO_TESTS, with BUILD_TESTING off (CTest's switch), or in rrgen's own build
  # configured without tests (no doctest, hence no rrgen_discover_doctests).
  if(ARG_NO_TESTS OR (DEFINED BUILD_TESTING AND NOT BUILD_TESTING) OR NOT COMMAND rrgen_discover_doctests)
    return()
  endif()
  # doctest's main(), written at configure time (so a no-op build never touches it).
  set(test_main "${CMAKE_CURRENT_BINARY_DIR}/${name}_tests_main.cpp")
  string(CONCAT main_text "// The main() of ${name}_tests, written by add_reconciler().\n"
    "#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN\n#include <doctest/doctest.h>\n")
  file(CONFIGURE OUTPUT "${test_main}" CONTENT "${main_text}")
  add_executable(${name}_tests ${tests} "${wiring_test_cpp}" ${policies_test_cpp} "${test_main}")
  target_link_libraries(${name}_tests PRIVATE ${name} rr::testing)
  if(policies_test_cpp)
    target_link_libraries(${name}_tests PRIVATE rr::manifest_check)
    set_property(SOURCE "${policies_test_cpp}" APPEND PROPERTY COMPILE_DEFINITIONS "RRGEN_CONFIG_DIR=\"${out}/config\"")
  endif()
  rrgen_discover_doctests(${name}_tests TEST_PREFIX "${ARG_TEST_PREFIX}" LABELS ${ARG_TEST_LABELS})
endfunction()
