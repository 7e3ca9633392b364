# expect: add_reconciler\(widget\): no widget_hooks.hpp in the directory of any of the SOURCES
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(widget SPEC reconciler.yaml CRDS crds/gizmos.yaml
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp)
