# expect: add_reconciler\(gizmo\): SOURCES is missing: list the user-owned hook files \(src/gizmo_hooks.hpp src/gizmo_hooks.cpp\), which the generated wiring calls\. The hook files and tests are created once
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(gizmo SPEC reconciler.yaml CRDS crds/gizmos.yaml)
