# The reconciler spec: reader, kind resolution and their tests (included by generator/CMakeLists.txt).
set(RRGEN_LIB_SOURCES_SPEC src/spec_reader.cpp src/spec_resolve.cpp)
set(RRGEN_UNIT_TEST_SOURCES_SPEC tests/spec_reader_test.cpp tests/spec_resolve_test.cpp tests/spec_schema_test.cpp)
