# Runs one golden case (cmake -P). Arguments:
#   -DRRGEN=<path to rrgen>   -DCASE_DIR=<tests/golden/cases/NAME>   -DWORK_DIR=<scratch directory>
#   -DUPDATE=ON|OFF           ON: replace CASE_DIR/expected/ with the fresh output instead of comparing
#
# A types case holds input.* (the inputs, in name order) or inputs.txt (files of the repository,
# one a line), optional args.txt (extra CLI arguments, one shell-quoted line) and expected/:
# exactly the files `rrgen types --out` writes, including .rrgen-manifest, plus model.json (the
# output of --dump-model=json).
#
# A reconciler case holds reconciler.yaml, its CRDs as input*.yaml (in name order; none when it
# names only built-in kinds) and optional args.txt; it runs
#   rrgen generate --spec reconciler.yaml <inputs> --out <dir>/out --scaffold <dir>/scaffold
# and expected/ holds both trees: expected/out/ (everything generated) and expected/scaffold/
# (the user-owned files).
#
# Besides the comparison, the runner checks that rrgen is deterministic and writes only what changed:
# a second run into the same directory must report "0 file(s) written", and a third run into a fresh
# directory must produce byte-identical files. For reconciler cases the second run also shows the
# generation gap: a scaffolded file the user edited is kept as it is, a deleted one comes back.
cmake_minimum_required(VERSION 3.20)

foreach(var RRGEN CASE_DIR WORK_DIR)
  if(NOT DEFINED ${var} OR "${${var}}" STREQUAL "")
    message(FATAL_ERROR "check_golden.cmake: -D${var}=... is required")
  endif()
endforeach()
if(NOT DEFINED UPDATE)
  set(UPDATE OFF)
endif()
get_filename_component(case_name "${CASE_DIR}" NAME)
set(expected_dir "${CASE_DIR}/expected")

# Prints the details verbatim (FATAL_ERROR would re-wrap them) and fails.
function(fail text)
  message("golden.${case_name}: ${text}")
  message(FATAL_ERROR "golden.${case_name} failed (details above)")
endfunction()
include("${CMAKE_CURRENT_LIST_DIR}/../compare_trees.cmake")  # list_tree, diff_hint, compare_trees

# ---- inputs and arguments ------------------------------------------------------------------------
set(spec "${CASE_DIR}/reconciler.yaml")
if(EXISTS "${spec}")
  file(GLOB inputs LIST_DIRECTORIES false "${CASE_DIR}/input*.yaml" "${CASE_DIR}/input*.json")
  list(SORT inputs)
elseif(EXISTS "${CASE_DIR}/inputs.txt")
  # The project's own schemas, pinned where they are rather than copied (one path a line,
  # relative to the repository root, in the order given).
  set(spec "")
  get_filename_component(repo_root "${CMAKE_CURRENT_LIST_DIR}/../.." ABSOLUTE)
  file(STRINGS "${CASE_DIR}/inputs.txt" listed REGEX "^[^#]")
  set(inputs)
  foreach(p IN LISTS listed)
    string(STRIP "${p}" p)
    if(NOT EXISTS "${repo_root}/${p}")
      fail("inputs.txt names ${p}, which does not exist")
    endif()
    list(APPEND inputs "${repo_root}/${p}")
  endforeach()
else()
  set(spec "")
  file(GLOB inputs LIST_DIRECTORIES false "${CASE_DIR}/input.*")
  if(NOT inputs)
    fail("no input.* file in ${CASE_DIR}")
  endif()
  list(SORT inputs)
endif()
set(extra_args)
if(EXISTS "${CASE_DIR}/args.txt")
  file(READ "${CASE_DIR}/args.txt" args_text)
  string(STRIP "${args_text}" args_text)
  separate_arguments(extra_args UNIX_COMMAND "${args_text}")
endif()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(out_dir "${WORK_DIR}/out")
set(fresh_dir "${WORK_DIR}/fresh")

# Runs rrgen with `types ${ARGN}` in WORK_DIR; sets <prefix>_rc, <prefix>_out, <prefix>_err.
function(run_rrgen prefix)
  run_rrgen_command(r types ${ARGN})
  set(${prefix}_rc "${r_rc}" PARENT_SCOPE)
  set(${prefix}_out "${r_out}" PARENT_SCOPE)
  set(${prefix}_err "${r_err}" PARENT_SCOPE)
endfunction()

# Runs rrgen with ${ARGN} (the command first) in WORK_DIR; sets the same three variables.
function(run_rrgen_command prefix)
  execute_process(
    COMMAND "${RRGEN}" ${ARGN}
    WORKING_DIRECTORY "${WORK_DIR}"
    RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${prefix}_rc "${rc}" PARENT_SCOPE)
  set(${prefix}_out "${out}" PARENT_SCOPE)
  set(${prefix}_err "${err}" PARENT_SCOPE)
endfunction()

# Copies every file of the tree `from` into `to` (created).
function(copy_tree from to)
  list_tree("${from}" files)
  file(MAKE_DIRECTORY "${to}")
  foreach(f IN LISTS files)
    configure_file("${from}/${f}" "${to}/${f}" COPYONLY)
  endforeach()
endfunction()

# Replaces CASE_DIR/expected/ with the tree `dir` (UPDATE=ON) or compares them; never returns when
# they differ.
function(update_or_compare dir)
  list_tree("${dir}" got)
  if(UPDATE)
    file(REMOVE_RECURSE "${expected_dir}")
    copy_tree("${dir}" "${expected_dir}")
    list(LENGTH got n)
    message(STATUS "golden.${case_name}: updated ${n} expected file(s) in ${expected_dir}")
    return()
  endif()
  if(NOT IS_DIRECTORY "${expected_dir}")
    fail("no expected/ directory; create it with -DUPDATE=ON (cmake --build <dir> --target update_golden)")
  endif()
  list_tree("${expected_dir}" want)
  compare_trees("${expected_dir}" "${want}" "${dir}" "${got}"
                "output differs from expected/ (if the change is intended, run the update_golden target and explain it in the commit message)")
endfunction()

if(spec)
  include("${CMAKE_CURRENT_LIST_DIR}/check_golden_generate.cmake")
  return()
endif()

# ---- run 1: generate ------------------------------------------------------------------------------
run_rrgen(r1 --out "${out_dir}" ${extra_args} ${inputs})
if(NOT r1_rc EQUAL 0)
  fail("rrgen exited with ${r1_rc}, expected 0\n${r1_err}")
endif()
if(NOT r1_err MATCHES "file\\(s\\) written")
  fail("rrgen did not print its summary line\n${r1_err}")
endif()

# ---- the model dump -------------------------------------------------------------------------------
run_rrgen(dump --dump-model=json ${extra_args} ${inputs})
if(NOT dump_rc EQUAL 0)
  fail("rrgen --dump-model=json exited with ${dump_rc}\n${dump_err}")
endif()
file(WRITE "${WORK_DIR}/model.json" "${dump_out}")

# ---- run 2: same directory, nothing may be written ------------------------------------------------
list_tree("${out_dir}" got_files)
file(MAKE_DIRECTORY "${WORK_DIR}/first")
foreach(f IN LISTS got_files)
  configure_file("${out_dir}/${f}" "${WORK_DIR}/first/${f}" COPYONLY)
endforeach()
run_rrgen(r2 --out "${out_dir}" ${extra_args} ${inputs})
if(NOT r2_rc EQUAL 0)
  fail("second run exited with ${r2_rc}\n${r2_err}")
endif()
if(NOT r2_err MATCHES "(^|[^0-9])0 file\\(s\\) written" OR NOT r2_err MATCHES "(^|[^0-9])0 removed")
  fail("second run over unchanged inputs rewrote or removed files (write-if-changed is broken):\n${r2_err}")
endif()
list_tree("${out_dir}" got_files2)
compare_trees("${WORK_DIR}/first" "${got_files}" "${out_dir}" "${got_files2}" "second run changed the output")

# ---- run 3: a fresh directory must get byte-identical files --------------------------------------
run_rrgen(r3 --out "${fresh_dir}" ${extra_args} ${inputs})
if(NOT r3_rc EQUAL 0)
  fail("third run exited with ${r3_rc}\n${r3_err}")
endif()
list_tree("${fresh_dir}" fresh_files)
compare_trees("${out_dir}" "${got_files}" "${fresh_dir}" "${fresh_files}" "output is not deterministic")
run_rrgen(dump2 --dump-model=json ${extra_args} ${inputs})
if(NOT dump2_out STREQUAL dump_out)
  fail("--dump-model=json output is not deterministic")
endif()

# The actual tree = the written files + model.json.
file(COPY_FILE "${WORK_DIR}/model.json" "${out_dir}/model.json")
list(APPEND got_files model.json)
list(SORT got_files)

# ---- update or compare ----------------------------------------------------------------------------
update_or_compare("${out_dir}")
