#include "support/naming.hpp"

#include <doctest/doctest.h>

using namespace rrgen;

TEST_CASE("field names: snake_case, keywords and platform macros escaped") {
  CHECK(field_name("proxyURL") == "proxy_url");
  CHECK(field_name("proxyUrl") == "proxy_url");
  CHECK(field_name("jwks_uri") == "jwks_uri");
  CHECK(field_name("jwksUri") == "jwks_uri");
  CHECK(field_name("hugepages-2Mi") == "hugepages_2_mi");
  CHECK(field_name("-Xmx") == "xmx");
  CHECK(field_name("__name__") == "name");
  CHECK(field_name("x-kubernetes-validations") == "x_kubernetes_validations");
  CHECK(field_name("namespace") == "namespace_");
  CHECK(field_name("operator") == "operator_");
  CHECK(field_name("template") == "template_");
  CHECK(field_name("class") == "class_");
  CHECK(field_name("default") == "default_");
  CHECK(field_name("enum") == "enum_");
  CHECK(field_name("for") == "for_");
  CHECK(field_name("module") == "module_");
  CHECK(field_name("not") == "not_");
  CHECK(field_name("stdin") == "stdin_");
  CHECK(field_name("major") == "major_");
  CHECK(field_name("2xx") == "_2xx");
  CHECK(field_name("") == "value");
  CHECK(field_name("$") == "value");
  CHECK(field_name("URLPath") == "url_path");
  CHECK(field_name("ipv4Address") == "ipv4_address");
}

TEST_CASE("type names: PascalCase, never empty, never starting with a digit") {
  CHECK(pascal_case("proxyURL") == "ProxyURL");
  CHECK(pascal_case("hugepages-2Mi") == "Hugepages2Mi");
  CHECK(pascal_case("__name__") == "Name");
  CHECK(pascal_case("postgresql") == "Postgresql");
  CHECK(pascal_case("") == "Value");
  CHECK(pascal_case("3scale") == "V3scale");
}

TEST_CASE("enumerators: readable, symbol-only values spelled out, macros avoided") {
  CHECK(enumerator_name("IfNotPresent") == "IfNotPresent");
  CHECK(enumerator_name("if-not-present") == "IfNotPresent");
  CHECK(enumerator_name("") == "Empty");
  CHECK(enumerator_name("=~") == "EqTilde");
  CHECK(enumerator_name("!=") == "NotEq");
  CHECK(enumerator_name("1.2") == "V1_2");
  CHECK(enumerator_name("TRUE") == "TRUE_");
  CHECK(enumerator_name("DELETE") == "DELETE_");
  CHECK(enumerator_name("DOMAIN") == "DOMAIN_");
  CHECK(enumerator_name("TCP") == "TCP");
}

TEST_CASE("namespace segments and scopes") {
  CHECK(namespace_segment("monitoring.coreos.com") == "monitoring_coreos_com");
  CHECK(namespace_segment("v1alpha1") == "v1alpha1");
  CHECK(namespace_segment("3scale.net") == "g3scale_net");
  CHECK(namespace_segment("a..b") == "a_b");
  NameScope scope;
  CHECK(scope.claim("proxy_url") == "proxy_url");
  bool renamed = false;
  CHECK(scope.claim("proxy_url", &renamed) == "proxy_url_2");
  CHECK(renamed);
  NameScope types(true);
  CHECK(types.claim("Foo") == "Foo");
  CHECK(types.claim("Foo") == "Foo2");
}

TEST_CASE("kebab case: the text of a DNS label from a file stem or a name") {
  CHECK(kebab_case("web_app") == "web-app");
  CHECK(kebab_case("my-operator") == "my-operator");
  CHECK(kebab_case("shop2") == "shop2");
  CHECK(kebab_case("a") == "a");
  CHECK(kebab_case("__a__b_") == "a-b");
  CHECK(kebab_case("a.b/c d") == "a-b-c-d");
  CHECK(kebab_case("___").empty());
}
