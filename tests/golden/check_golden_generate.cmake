# The reconciler half of check_golden.cmake (included by it, which defines the helpers and
# `spec`, `inputs`, `extra_args`, `WORK_DIR`): `rrgen generate` into out/ and scaffold/.
#
#   run 1   into result/                        -> the tree the case pins
#   run 3   into fresh/                         -> byte-identical to run 1 (determinism)
#   run 2   into result/ again, after the user edited one scaffolded file and deleted another:
#           nothing generated is rewritten, the edited file is kept, the deleted one comes back
#           as it was
set(result_dir "${WORK_DIR}/result")
set(fresh_dir "${WORK_DIR}/fresh")

function(run_generate prefix dir)
  run_rrgen_command(r generate --spec "${spec}" --out "${dir}/out" --scaffold "${dir}/scaffold" ${extra_args}
                    ${inputs})
  if(NOT r_rc EQUAL 0)
    fail("rrgen generate (${prefix}) exited with ${r_rc}, expected 0\n${r_err}")
  endif()
  set(${prefix}_err "${r_err}" PARENT_SCOPE)
endfunction()

# ---- run 1 --------------------------------------------------------------------------------------
run_generate(r1 "${result_dir}")
if(NOT r1_err MATCHES "file\\(s\\) written")
  fail("rrgen did not print its summary line\n${r1_err}")
endif()
if(NOT IS_DIRECTORY "${result_dir}/scaffold/src")
  fail("--scaffold wrote no src/ directory\n${r1_err}")
endif()
copy_tree("${result_dir}" "${WORK_DIR}/first")
list_tree("${WORK_DIR}/first" first_files)

# ---- run 3: a fresh directory -------------------------------------------------------------------
run_generate(r3 "${fresh_dir}")
list_tree("${fresh_dir}" fresh_files)
compare_trees("${WORK_DIR}/first" "${first_files}" "${fresh_dir}" "${fresh_files}" "output is not deterministic")

# ---- run 2: the same directories, after the user worked on the scaffold ------------------------
file(GLOB edited LIST_DIRECTORIES false "${result_dir}/scaffold/src/*_hooks.cpp")
file(GLOB deleted LIST_DIRECTORIES false "${result_dir}/scaffold/tests/*_test.cpp")
if(NOT edited OR NOT deleted)
  fail("the scaffold has no src/*_hooks.cpp or no tests/*_test.cpp")
endif()
list(GET deleted 0 deleted)
file(APPEND "${edited}" "// edited by the user\n")
file(READ "${edited}" edited_text)
file(REMOVE "${deleted}")
run_generate(r2 "${result_dir}")
if(NOT r2_err MATCHES "(^|[^0-9])0 file\\(s\\) written" OR NOT r2_err MATCHES "(^|[^0-9])0 removed")
  fail("second run over unchanged inputs rewrote or removed generated files (write-if-changed is broken):\n${r2_err}")
endif()
if(NOT r2_err MATCHES "(^|[^0-9])1 file\\(s\\) created")
  fail("second run did not recreate the one scaffolded file that was deleted:\n${r2_err}")
endif()
file(READ "${edited}" edited_after)
if(NOT edited_after STREQUAL edited_text)
  fail("the second run overwrote the user's edit of ${edited} (scaffolded files are the user's)")
endif()
# Undo the edit: the rest of the tree must be what run 1 wrote.
file(RELATIVE_PATH edited_rel "${result_dir}" "${edited}")
file(REMOVE "${edited}")
configure_file("${WORK_DIR}/first/${edited_rel}" "${edited}" COPYONLY)
list_tree("${result_dir}" result_files)
compare_trees("${WORK_DIR}/first" "${first_files}" "${result_dir}" "${result_files}" "second run changed the output")

# ---- update or compare --------------------------------------------------------------------------
update_or_compare("${fresh_dir}")
