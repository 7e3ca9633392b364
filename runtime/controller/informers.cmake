# Informers, the shared informer cache and the cached client (part of rr::controller).
# Included by CMakeLists.txt; tests in their own executable.
target_sources(rr_controller PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_store.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_transforms.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_reflector.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_initial_list.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_cache.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_cache_index.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/field_matcher.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/field_indexer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/informer_cache_metrics.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/cached_client.cpp
)

if(RRGEN_BUILD_TESTS)
  add_executable(rr_informer_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/main_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_initial_list_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_store_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_options_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_cache_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_cache_namespaces_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_cache_namespace_selector_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/informer_cache_metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/cached_client_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/read_your_writes_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/field_index_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/child_index_test.cpp
  )
  target_link_libraries(rr_informer_tests PRIVATE rr::controller rr::cluster doctest::doctest)
  rrgen_target_defaults(rr_informer_tests)
  rrgen_discover_doctests(rr_informer_tests TEST_PREFIX "controller.informer." LABELS unit fast)
endif()
