# cmake.install: installs the enclosing build into a fresh PREFIX, as `cmake --install` users do,
# and checks that the package is complete: the tool runs, the CMake package and the headers of every
# layer (the built-in kinds' generated headers included) are there.
# Extra argument: -DBUILD_DIR=<the enclosing build directory>.
include("${CMAKE_CURRENT_LIST_DIR}/common.cmake")

file(REMOVE_RECURSE "${PREFIX}")
set(config_args "")
if(BUILD_TYPE)
  set(config_args --config "${BUILD_TYPE}")
endif()
run_ok(install "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${PREFIX}" ${config_args})

foreach(file IN ITEMS
    bin/rrgen
    bin/rrgen-validate
    lib/cmake/rrgen/rrgenConfig.cmake
    lib/cmake/rrgen/rrgenConfigVersion.cmake
    lib/cmake/rrgen/rrgenTargets.cmake
    lib/cmake/rrgen/RrgenReconciler.cmake
    lib/cmake/rrgen/RrgenProject.cmake
    lib/cmake/rrgen/RrgenImage.cmake
    include/rr/core/meta.hpp
    include/rr/reconcilers/child.hpp
    include/rr/testing/testing.hpp
    include/rr/manager/operator_main.hpp
    include/rr/local_cluster_mode/local_cluster_mode.hpp
    include/k8s/core/v1/config_map.hpp
    include/k8s/apps/v1/deployment_apply.hpp
    include/rr_builtin_types.hpp)
  if(NOT EXISTS "${PREFIX}/${file}")
    fail("the install tree has no ${file}; `cmake --install` said:\n${install_output}")
  endif()
endforeach()

# rrgen validate from the install tree: rrgen finds rrgen-validate beside it.
run_ok(validate_help "${PREFIX}/bin/rrgen" validate --help)
if(NOT validate_help_output MATCHES "usage: rrgen validate")
  fail("the installed rrgen validate --help printed:\n${validate_help_output}")
endif()

run_ok(version "${PREFIX}/bin/rrgen" --version)
if(NOT version_output MATCHES "^rrgen [0-9]+\\.[0-9]+\\.[0-9]+")
  fail("the installed rrgen --version printed:\n${version_output}")
endif()
