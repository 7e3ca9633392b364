# `cmake --install` and the package find_package(rrgen CONFIG) loads: the rrgen tool, the runtime
# libraries with their headers (the built-in kinds' generated headers included), and the CMake
# functions (rrgen_add_types, add_reconciler). Included at the end of the top-level CMakeLists.txt,
# once every exported target exists.
#
# Installed targets are rrgen::rrgen, rrgen-cluster and rrgen-validate (programs; rrgen-validate
# beside rrgen in bin/, where `rrgen validate` looks first), rrgen::core, rrgen::yaml, rrgen::cel, rrgen::schema, rrgen::schema_cel, rrgen::validation, rrgen::client,
# rrgen::rest_config, rrgen::http_client, rrgen::http_server, rrgen::cluster, rrgen::wire_order, rrgen::admission_policy, rrgen::builtin, rrgen::reconcilers,
# rrgen::controller, rrgen::webhook, rrgen::testing, rrgen::node, rrgen::cert_manager, rrgen::kube_controllers, rrgen::apiserver, rrgen::manager, rrgen::local_cluster_mode
# (the opt-in behind --local-cluster-kubeconfig) and rrgen::manifest_check (what a generated
# policies test links); rrgenConfig.cmake adds the rr::<layer> names
# rrgen's own build uses, and this file adds the rrgen:: names to rrgen's own build, so code (and
# add_reconciler) links the same names in both.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(RRGEN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_LIBDIR}/cmake/rrgen" CACHE STRING
  "Where rrgenConfig.cmake is installed, relative to the prefix")

set(_rrgen_layers core yaml cel schema schema_cel validation client rest_config http_client http_server cluster wire_order admission_policy builtin builtin_apply reconcilers controller
  webhook testing node cert_manager kube_controllers apiserver manager local_cluster_mode manifest_check)
foreach(_layer IN LISTS _rrgen_layers)
  set_target_properties(rr_${_layer} PROPERTIES EXPORT_NAME ${_layer})
  add_library(rrgen::${_layer} ALIAS rr_${_layer})
endforeach()

list(TRANSFORM _rrgen_layers PREPEND "rr_" OUTPUT_VARIABLE _rrgen_layer_targets)
install(TARGETS rrgen rrgen-cluster rrgen-validate ${_rrgen_layer_targets}
  EXPORT rrgenTargets
  RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}"
  ARCHIVE DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  LIBRARY DESTINATION "${CMAKE_INSTALL_LIBDIR}"
  INCLUDES DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
# A program only (no CMake target for users): Kubernetes' fixtures through the built-in kinds.
install(TARGETS rrgen-roundtrip RUNTIME DESTINATION "${CMAKE_INSTALL_BINDIR}")

# Headers: each layer's include/ holds rr/<layer>/...; the built-in kinds' headers
# (k8s/<group>/<version>/*.hpp and rr_builtin_types.hpp) are generated into rr_builtin's output
# directory at build time.
foreach(_layer IN LISTS _rrgen_layers)
  if(_layer STREQUAL "builtin" OR _layer STREQUAL "builtin_apply")
    continue()
  endif()
  install(DIRECTORY "${PROJECT_SOURCE_DIR}/runtime/${_layer}/include/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")
endforeach()
get_target_property(_rrgen_builtin_dir rr_builtin RRGEN_OUTPUT_DIR)
install(DIRECTORY "${_rrgen_builtin_dir}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.hpp")
# rr::builtin_apply's apply configurations (k8s/<group>/<version>/*_apply.hpp), generated likewise.
get_target_property(_rrgen_builtin_apply_dir rr_builtin_apply RRGEN_OUTPUT_DIR)
install(DIRECTORY "${_rrgen_builtin_apply_dir}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}"
  FILES_MATCHING PATTERN "*.hpp")
# The built-in kinds' test factories (rr/testing/dies/...), generated into rr_testing's build tree.
get_target_property(_rrgen_dies_dir rr_testing RRGEN_DIES_DIR)
install(DIRECTORY "${_rrgen_dies_dir}/" DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}" FILES_MATCHING PATTERN "*.hpp")

install(EXPORT rrgenTargets NAMESPACE rrgen:: DESTINATION "${RRGEN_INSTALL_CMAKEDIR}")
configure_package_config_file("${PROJECT_SOURCE_DIR}/cmake/rrgenConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/rrgenConfig.cmake"
  INSTALL_DESTINATION "${RRGEN_INSTALL_CMAKEDIR}")
# 0.x: a minor release may change the API, so only the same minor version is compatible.
write_basic_package_version_file("${PROJECT_BINARY_DIR}/rrgenConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}" COMPATIBILITY SameMinorVersion)
install(FILES
  "${PROJECT_BINARY_DIR}/rrgenConfig.cmake"
  "${PROJECT_BINARY_DIR}/rrgenConfigVersion.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindRE2.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/FindLibYAML.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenGenerate.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenReconciler.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenProject.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenImage.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenTesting.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenDoctestAddTests.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/RrgenTypes.cmake"
  DESTINATION "${RRGEN_INSTALL_CMAKEDIR}")
