// The core family's validators against tests/data/core_kinds_cases.json: each case's object (and,
// for an update, its old object) through validate_builtin, the findings compared with the causes a
// 422 would list (reason, field, message), in order.
#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "rr/validation/builtin.hpp"

using namespace rr::validation;
using rr::Json;

namespace {

// A Status cause's reason is "FieldValue" + the type's name (rr::api_errors writes it that way).
std::string reason(FieldErrorType t) {
  static const std::pair<FieldErrorType, const char*> kNames[] = {
      {FieldErrorType::Required, "Required"},         {FieldErrorType::Invalid, "Invalid"},
      {FieldErrorType::NotSupported, "NotSupported"}, {FieldErrorType::TooLong, "TooLong"},
      {FieldErrorType::TooMany, "TooMany"},           {FieldErrorType::Duplicate, "Duplicate"},
      {FieldErrorType::Forbidden, "Forbidden"}};
  for (const auto& [type, name] : kNames) {
    if (type == t) return std::string("FieldValue") + name;
  }
  return "?";
}

Json load_cases() {
  std::ifstream in(RR_VALIDATION_TEST_DATA "/core_kinds_cases.json");
  REQUIRE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  return Json::parse(text.str());
}

struct Gvk {
  std::string group, version, kind;
};

Gvk gvk_of(const Json& object) {
  const std::string api_version = object.at("apiVersion").get<std::string>();
  const auto slash = api_version.find('/');
  if (slash == std::string::npos) return {"", api_version, object.at("kind").get<std::string>()};
  return {api_version.substr(0, slash), api_version.substr(slash + 1), object.at("kind").get<std::string>()};
}

ErrorList run(const Json& object, const Json* old) {
  const Gvk g = gvk_of(object);
  return validate_builtin(g.group, g.version, g.kind, object, old);
}

// One line per cause, so that a failure prints both lists in full.
std::string rendered(const ErrorList& errs) {
  std::string out;
  for (const FieldError& e : errs) out += reason(e.type) + " " + e.field + ": " + e.body() + "\n";
  return out;
}

std::string expected(const Json& causes) {
  std::string out;
  for (const Json& c : causes) {
    out += c.at("reason").get<std::string>() + " " + c.at("field").get<std::string>() + ": " +
           c.at("message").get<std::string>() + "\n";
  }
  return out;
}

}  // namespace

TEST_CASE("core kinds: every case of core_kinds_cases.json gets exactly its causes") {
  const Json doc = load_cases();
  const Json& cases = doc.at("cases");
  REQUIRE(cases.size() > 150);
  int invalid_cases = 0;
  for (const Json& c : cases) {
    const std::string name = c.at("name").get<std::string>();
    CAPTURE(name);
    const Gvk g = gvk_of(c.at("object"));
    REQUIRE(find_builtin_validator(g.group, g.version, g.kind) != nullptr);
    const Json* old = c.contains("old") ? &c.at("old") : nullptr;
    CHECK(rendered(run(c.at("object"), old)) == expected(c.at("causes")));
    if (!c.at("causes").empty()) ++invalid_cases;
  }
  CHECK(invalid_cases > 100);
}

TEST_CASE("core kinds: the table holds this family's kinds") {
  for (const char* kind :
       {"ConfigMap", "Secret", "Service", "Endpoints", "ServiceAccount", "Namespace", "PersistentVolumeClaim"}) {
    CAPTURE(kind);
    CHECK(find_builtin_validator("", "v1", kind) != nullptr);
  }
  for (const char* kind : {"Role", "ClusterRole", "RoleBinding", "ClusterRoleBinding"}) {
    CAPTURE(kind);
    CHECK(find_builtin_validator("rbac.authorization.k8s.io", "v1", kind) != nullptr);
  }
  CHECK(find_builtin_validator("coordination.k8s.io", "v1", "Lease") != nullptr);
  CHECK(find_builtin_validator("networking.k8s.io", "v1", "Ingress") != nullptr);
  CHECK(find_builtin_validator("networking.k8s.io", "v1", "NetworkPolicy") != nullptr);
  CHECK(find_builtin_validator("policy", "v1", "PodDisruptionBudget") != nullptr);
  CHECK(find_builtin_validator("autoscaling", "v2", "HorizontalPodAutoscaler") != nullptr);
  CHECK(find_builtin_validator("", "v1beta1", "ConfigMap") == nullptr);
}

TEST_CASE("ConfigMap and Secret: at most 1 MiB of values, data and binaryData together") {
  const std::string half(512 * 1024, 'x');
  Json cm = {{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"data", {{"a", half}}}, {"binaryData", {{"b", ""}}}};
  CHECK(run(cm, nullptr).empty());
  // 512 KiB + 1 decoded byte ("AA==") is still within; one more full half is not.
  cm["binaryData"]["b"] = "AA==";
  cm["data"]["c"] = half;
  const ErrorList errs = run(cm, nullptr);
  REQUIRE(errs.size() == 1);
  CHECK(errs[0].to_string() == ": Too long: may not be more than 1048576 bytes");
  CHECK(errs[0].type == FieldErrorType::TooLong);

  // A Secret counts decoded bytes: 1 MiB of base64 text is 768 KiB of data.
  const std::string base64_mib(1024 * 1024, 'A');
  Json secret = {{"apiVersion", "v1"}, {"kind", "Secret"}, {"type", "Opaque"}, {"data", {{"a", base64_mib}}}};
  CHECK(run(secret, nullptr).empty());
  secret["stringData"] = {{"b", std::string(300 * 1024, 'y')}};
  const ErrorList secret_errs = run(secret, nullptr);
  REQUIRE(secret_errs.size() == 1);
  CHECK(secret_errs[0].to_string() == "data: Too long: may not be more than 1048576 bytes");
}

TEST_CASE("core kinds: members of the wrong JSON type are left to the decoder") {
  const Json svc = Json::parse(
      R"({"apiVersion":"v1","kind":"Service","spec":{"type":"ClusterIP","sessionAffinity":"None",
      "internalTrafficPolicy":"Cluster","ports":"80","selector":["app"],"clusterIPs":"10.0.0.1"}})");
  // ports of the wrong type count as none: only the Required finding, no crash.
  CHECK(rendered(run(svc, nullptr)) == "FieldValueRequired spec.ports: Required value\n");
  const Json binding = Json::parse(R"({"apiVersion":"rbac.authorization.k8s.io/v1","kind":"RoleBinding",
      "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"Role","name":"r"},"subjects":[7,"x",null]})");
  CHECK(run(binding, nullptr).empty());
  // Found by fuzz_builtin_core: a PersistentVolumeClaim update whose spec or resources is not an
  // object threw from inside the immutability comparison.
  const Json pvc = Json::parse(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","spec":null})");
  const Json bound = Json::parse(R"({"apiVersion":"v1","kind":"PersistentVolumeClaim","status":{"phase":"Bound"},
      "spec":{"accessModes":["ReadWriteOnce"],"resources":"1Gi"}})");
  CHECK_NOTHROW(run(pvc, &bound));
  CHECK_NOTHROW(run(bound, &pvc));
  CHECK(rendered(run(pvc, &bound)) ==
        "FieldValueRequired spec.accessModes: Required value: at least 1 access mode is required\n"
        "FieldValueRequired spec.resources[storage]: Required value\n"
        "FieldValueForbidden spec: Forbidden: spec is immutable after creation except resources.requests and "
        "volumeAttributesClassName for bound claims\n\n");
}
