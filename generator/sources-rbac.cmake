# RBAC and deploy config backends (rbac helper): the rule model and normaliser, the spec's
# least-privilege derivation, the YAML manifest writer, config/rbac and the rest of config/.
set(RRGEN_LIB_SOURCES_RBAC
  src/rbac_model.cpp
  src/rbac_derive.cpp
  src/yaml_writer.cpp
  src/emit_rbac.cpp
  src/emit_config.cpp
)
set(RRGEN_UNIT_TEST_SOURCES_RBAC
  tests/rbac_model_test.cpp
  tests/rbac_derive_test.cpp
  tests/yaml_writer_test.cpp
  tests/emit_config_test.cpp
)
