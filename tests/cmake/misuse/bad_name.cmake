# expect: add_reconciler\(Gizmo-Operator\): the first argument is the reconciler's name, a lower-case identifier
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(Gizmo-Operator SPEC reconciler.yaml CRDS crds/gizmos.yaml
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp)
