# expect: add_reconciler\(gizmo\): TESTS file 'tests/retired_step_test.cpp' does not exist\. If the step it tested left the spec, remove the file from TESTS \(or list the tests with file\(GLOB \.\.\.\), as a project .rrgen init. made does\)\. The tests of the spec's current steps that do not exist yet are created, never overwritten, by .rrgen generate --spec reconciler.yaml --stem gizmo
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(gizmo SPEC reconciler.yaml CRDS crds/gizmos.yaml
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp TESTS tests/retired_step_test.cpp)
