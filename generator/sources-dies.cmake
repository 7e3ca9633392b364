# The test-factories backend ("dies"): <stem>_dies.hpp for `rrgen generate`.
set(RRGEN_LIB_SOURCES_DIES src/emit_dies.cpp)
set(RRGEN_UNIT_TEST_SOURCES_DIES tests/emit_dies_test.cpp)
