# expect: add_reconciler\(gizmo\): SPEC <reconciler.yaml> is required
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(gizmo CRDS crds/gizmos.yaml SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp)
