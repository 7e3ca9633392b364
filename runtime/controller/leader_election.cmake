# Leader election on a coordination.k8s.io/v1 Lease (client-go semantics), part of rr::controller.
target_sources(rr_controller PRIVATE src/leader_election.cpp)
target_link_libraries(rr_controller PUBLIC rr::builtin)

if(RRGEN_BUILD_TESTS)
  add_executable(rr_leader_election_tests
    tests/main_test.cpp
    tests/leader_election_test.cpp
  )
  target_link_libraries(rr_leader_election_tests PRIVATE rr::controller rr::builtin rr::cluster doctest::doctest)
  rrgen_target_defaults(rr_leader_election_tests)
  rrgen_discover_doctests(rr_leader_election_tests TEST_PREFIX "controller.leader_election." LABELS unit fast)
endif()
