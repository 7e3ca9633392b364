# Controller: informers → work queue → workers → rr::Reconciler (part of rr::controller).
# Included by CMakeLists.txt; tests in their own executable.
target_sources(rr_controller PRIVATE
  ${CMAKE_CURRENT_LIST_DIR}/src/async_event_recorder.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/controller.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/controller_handlers.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/controller_worker.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/deadline_timer.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/event_recorder_v1.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/predicates.cpp
  ${CMAKE_CURRENT_LIST_DIR}/src/sources.cpp
)

if(RRGEN_BUILD_TESTS)
  add_executable(rr_controller_runtime_tests
    ${CMAKE_CURRENT_LIST_DIR}/tests/main_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/controller_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/controller_handlers_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/controller_priority_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/predicates_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/controller_watches_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/async_event_recorder_test.cpp
    ${CMAKE_CURRENT_LIST_DIR}/tests/event_recorder_v1_test.cpp
  )
  target_include_directories(rr_controller_runtime_tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/src)
  target_link_libraries(rr_controller_runtime_tests PRIVATE rr::controller rr::cluster doctest::doctest)
  rrgen_target_defaults(rr_controller_runtime_tests)
  # The prefix of the days the Controller was part of rr::manager, so test names stay stable.
  rrgen_discover_doctests(rr_controller_runtime_tests TEST_PREFIX "manager.controller." LABELS unit fast SLOW_REGEX "^slow: ")
endif()
