# expect: add_reconciler\(gizmo\): SOURCES file 'src/gizmo_extra.cpp' does not exist\. The hook files and tests are created once, in [^ ]+/src, by .rrgen generate --spec reconciler.yaml --stem gizmo --out [^ ]+/gizmo_generated crds/gizmos.yaml --scaffold \.. \(or, for a new project, by .rrgen init.\)
cmake_minimum_required(VERSION 3.25)
project(gizmo_operator LANGUAGES CXX)
find_package(rrgen CONFIG REQUIRED)
enable_testing()
add_reconciler(gizmo SPEC reconciler.yaml CRDS crds/gizmos.yaml
  SOURCES src/gizmo_hooks.hpp src/gizmo_hooks.cpp src/gizmo_extra.cpp)
