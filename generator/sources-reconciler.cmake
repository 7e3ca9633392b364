# The reconciler backend of `rrgen generate` (wiring, hooks, scaffolds) and its unit tests;
# included by generator/CMakeLists.txt. Paths are relative to generator/.
set(RRGEN_LIB_SOURCES_RECONCILER
  src/emit_reconciler.cpp
  src/hooks.cpp
  src/scaffold.cpp
  src/text_template.cpp
)
set(RRGEN_UNIT_TEST_SOURCES_RECONCILER
  tests/emit_reconciler_test.cpp
  tests/hooks_test.cpp
  tests/scaffold_test.cpp
  tests/text_template_test.cpp
)
