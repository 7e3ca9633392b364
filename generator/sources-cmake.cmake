# `rrgen init` (cmake helper): the project scaffold and its command line; and the tests of what
# the output writer does for build systems (the depfile's targets, touching the build-facing files).
set(RRGEN_LIB_SOURCES_CMAKE src/init.cpp src/cli_init.cpp)
set(RRGEN_UNIT_TEST_SOURCES_CMAKE tests/init_test.cpp tests/output_build_facing_test.cpp)
