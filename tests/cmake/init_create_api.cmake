# cmake.init.create_api: `rrgen create api` adds a kind to a project `rrgen init` made; the project
# configures, builds and passes both kinds' tests with no file of the user's edited; the same
# command again is refused and changes nothing (the trees compared file by file).
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")
include("${CMAKE_CURRENT_LIST_DIR}/../compare_trees.cmake")  # list_tree, compare_trees

set(root "${WORK}/init_create_api")
set(project "${root}/shop")
set(build "${root}/build")
file(REMOVE_RECURSE "${root}")

run_ok(init "${PREFIX}/bin/rrgen" init shop --dir "${project}")
file(READ "${project}/CMakeLists.txt" cmake_before)
file(READ "${project}/src/main.cpp" main_before)
set(add_backup "${PREFIX}/bin/rrgen" create api --group shop.example.com --version v1 --kind BackupPlan)
execute_process(COMMAND ${add_backup} WORKING_DIRECTORY "${project}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE create_output ERROR_VARIABLE create_output)
if(NOT rc EQUAL 0)
  fail("rrgen create api failed (exit ${rc}):\n${create_output}")
endif()
expect_files("${project}" "rrgen create api" "${create_output}" crds/backupplans.yaml samples/backup_plan.yaml
  reconcilers/backup_plan.yaml src/backup_plan_hooks.hpp src/backup_plan_hooks.cpp
  tests/backup_plan/greeting_test.cpp tests/backup_plan/config_test.cpp)
file(READ "${project}/CMakeLists.txt" cmake_after)
file(READ "${project}/src/main.cpp" main_after)
if(NOT cmake_after STREQUAL cmake_before OR NOT main_after STREQUAL main_before)
  fail("rrgen create api changed CMakeLists.txt or src/main.cpp, which are the user's")
endif()

configure_project(configure "${project}" "${build}")
if(NOT configure_rc EQUAL 0)
  fail("configuring the project with two kinds failed:\n${configure_output}")
endif()
build_project(build "${build}")
# The build wrote the operator's one deploy tree: both CRDs, one Deployment (rrgen project-config).
set(install_yaml "${build}/deploy/dist/install.yaml")
if(NOT EXISTS "${install_yaml}")
  fail("the build did not write ${install_yaml}")
endif()
file(READ "${install_yaml}" install_text)
string(REGEX MATCHALL "\nkind: Deployment\n" deployments "${install_text}")
list(LENGTH deployments deployment_count)
if(NOT install_text MATCHES "name: backupplans\.shop\.example\.com" OR NOT install_text MATCHES "name: shops\.example\.com"
   OR NOT deployment_count EQUAL 1 OR NOT install_text MATCHES "name: shop-controller-manager")
  fail("${install_yaml} is not one operator with both kinds (${deployment_count} Deployment(s)):\n${install_text}")
endif()
# Each kind: its wiring tests and the scaffolded case of each of its two steps.
test_project("${build}" 12)
run_ok(ctest_list "${CMAKE_CTEST_COMMAND}" --test-dir "${build}" -N)
if(NOT ctest_list_output MATCHES "backup_plan\\." OR NOT ctest_list_output MATCHES "shop\\.")
  fail("the tests of both kinds are not there:\n${ctest_list_output}")
endif()

# Again: refused, and the project is as it was.
list_tree("${project}" before_files)
file(REMOVE_RECURSE "${root}/before")
file(COPY "${project}/" DESTINATION "${root}/before")
execute_process(COMMAND ${add_backup} WORKING_DIRECTORY "${project}"
  RESULT_VARIABLE again_rc OUTPUT_VARIABLE again_output ERROR_VARIABLE again_output)
if(again_rc EQUAL 0 OR NOT again_output MATCHES "already .*\\[kind-exists\\]")
  fail("rrgen create api for a kind the project has: exit ${again_rc}:\n${again_output}")
endif()
list_tree("${project}" after_files)
compare_trees("${root}/before" "${before_files}" "${project}" "${after_files}" "a second create api changed the project")

# A step added to the kind's spec later: `rrgen generate --scaffold .` puts its test beside the
# kind's others (tests/backup_plan/, which the kind's add_reconciler() globs), not in tests/.
file(APPEND "${project}/reconcilers/backup_plan.yaml" "  - sync: Audit\n")
execute_process(COMMAND "${PREFIX}/bin/rrgen" generate --spec reconcilers/backup_plan.yaml crds/backupplans.yaml
    --scaffold . WORKING_DIRECTORY "${project}"
  RESULT_VARIABLE rc OUTPUT_VARIABLE scaffold_output ERROR_VARIABLE scaffold_output)
if(NOT rc EQUAL 0)
  fail("rrgen generate --scaffold after adding a step failed (exit ${rc}):\n${scaffold_output}")
endif()
expect_files("${project}" "rrgen generate --scaffold" "${scaffold_output}" tests/backup_plan/audit_test.cpp)
if(EXISTS "${project}/tests/audit_test.cpp")
  fail("rrgen generate --scaffold put the new step's test in tests/, outside the kind's directory")
endif()
