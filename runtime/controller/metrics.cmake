# The Prometheus registry and controller-runtime's metric set (part of rr::controller).
# Included by CMakeLists.txt; tests in their own executable.
target_sources(rr_controller PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/controller_metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/process_metrics.cpp
)

if(RRGEN_BUILD_TESTS)
  add_executable(rr_metrics_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/main_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/process_metrics_test.cpp
  )
  target_link_libraries(rr_metrics_tests PRIVATE rr::controller doctest::doctest)
  rrgen_target_defaults(rr_metrics_tests)
  rrgen_discover_doctests(rr_metrics_tests TEST_PREFIX "controller.metrics." LABELS unit fast)
endif()
