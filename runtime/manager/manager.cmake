# The Manager shell (part of rr::manager): options and flags, JSON logs, signals, health checks,
# the /metrics and probe servers, and the run loop with leader election.
# Included by CMakeLists.txt; tests in their own executable.
target_sources(rr_manager PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/manager.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/manager_health_checks.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/manager_http.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/manager_json_log.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/manager_options.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/manager_signals.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/metrics_auth.cpp
)

if(RRGEN_BUILD_TESTS)
  add_executable(rr_manager_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_main_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_health_checks_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_json_log_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_options_test.cpp
  )
  target_link_libraries(rr_manager_tests PRIVATE rr::manager doctest::doctest)
  rrgen_target_defaults(rr_manager_tests)
  rrgen_discover_doctests(rr_manager_tests TEST_PREFIX "manager." LABELS unit fast)

  # The manager running: sockets on 127.0.0.1, real-time leader election, signals to a child
  # process (the test binary re-runs itself: see manager_main_test.cpp). A few seconds in all.
  add_executable(rr_manager_run_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_main_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_run_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_election_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_signals_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_default_metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_webhook_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_secure_metrics_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_watches_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/manager_namespace_selector_test.cpp
  )
  # The webhook test calls the webhook server with rr::webhook's test HTTPS client (libcurl).
  target_include_directories(rr_manager_run_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src
                                                          ${PROJECT_SOURCE_DIR}/runtime/webhook/tests
                                                          ${PROJECT_SOURCE_DIR}/runtime/apiserver/tests)
  target_link_libraries(rr_manager_run_tests PRIVATE rr::manager rr::cluster rr::builtin rr::apiserver rr::http_server
                                                     rr::http_client rrgen_httplib
                                                     CURL::libcurl doctest::doctest)
  rrgen_target_defaults(rr_manager_run_tests)
  rrgen_discover_doctests(rr_manager_run_tests TEST_PREFIX "manager.run." LABELS unit slow)
endif()

