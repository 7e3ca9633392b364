# expect: add_reconciler\(gizmo\): ANALYZE reads the sources' commands from compile_commands.json: set CMAKE_EXPORT_COMPILE_COMMANDS to ON
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
set(CMAKE_EXPORT_COMPILE_COMMANDS OFF)
add_reconciler(gizmo SPEC reconciler.yaml CRDS crds/gizmos.yaml
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp ANALYZE)
