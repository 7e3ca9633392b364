# expect: add_reconciler\(gizmo\): unknown keyword 'HOOKS' \(after CRDS\): the keywords are SPEC CRDS TYPES_HEADER TYPES_GROUP SOURCES
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(gizmo SPEC reconciler.yaml CRDS crds/gizmos.yaml HOOKS src/gizmo_hooks.cpp)
