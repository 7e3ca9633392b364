// A custom resource sent in a version other than its CRD's storage version is admitted with the
// schema of the version it was sent in (pruning, defaults, CEL rules), then converted to the
// storage version, by the HTTP API server and by rrgen-validate alike. The CRD's two versions
// differ: `legacy` and an "even size" rule only in v1alpha1, a "size at most 10" rule only in v1.
#include <doctest/doctest.h>

#include "admission_paths.hpp"

using rr::Json;
using namespace rr::manifest_check_test;

namespace {

Json version(const char* name, bool storage, Json properties, const char* rule, const char* message) {
  return Json{{"name", name},
              {"served", true},
              {"storage", storage},
              {"schema",
               {{"openAPIV3Schema",
                 {{"type", "object"},
                  {"properties",
                   {{"spec",
                     {{"type", "object"},
                      {"properties", std::move(properties)},
                      {"x-kubernetes-validations", Json::array({{{"rule", rule}, {"message", message}}})}}}}}}}}}};
}

Json two_version_crd() {
  const Json size{{"type", "integer"}};
  return Json{{"apiVersion", "apiextensions.k8s.io/v1"},
              {"kind", "CustomResourceDefinition"},
              {"metadata", {{"name", "dials.versions.example.com"}}},
              {"spec",
               {{"group", "versions.example.com"},
                {"scope", "Namespaced"},
                {"names", {{"plural", "dials"}, {"singular", "dial"}, {"kind", "Dial"}, {"listKind", "DialList"}}},
                {"versions",
                 Json::array({version("v1alpha1", false, {{"size", size}, {"legacy", {{"type", "string"}}}},
                                      "self.size % 2 == 0", "size must be even"),
                              version("v1", true, {{"size", size}}, "self.size <= 10", "size must be at most 10")})}}}};
}

Json dial(const char* version, int size, bool legacy = false) {
  Json object{{"apiVersion", std::string("versions.example.com/") + version},
              {"kind", "Dial"},
              {"metadata", {{"name", "d"}, {"namespace", "default"}}},
              {"spec", {{"size", size}}}};
  if (legacy) object["spec"]["legacy"] = "yes";
  return object;
}

Verdict invalid_spec(const std::string& message) {
  return Verdict{422,
                 "Dial.versions.example.com \"d\" is invalid: spec: Invalid value: " + message,
                 {rr::StatusCause{"FieldValueInvalid", "Invalid value: " + message, "spec"}}};
}

}  // namespace

TEST_CASE("a CRD's non-storage version: admitted with its own schema by the HTTP API server and rrgen-validate") {
  for (const bool strict : {false, true}) {
    CAPTURE(strict);
    HttpColumn http(strict);
    CheckerColumn checker(strict);
    for (const Column& column : {http.column(), checker.column()}) {
      CAPTURE(column.name);
      column.add_crd(two_version_crd());
      // v1alpha1: its own rule applies, v1's does not; its own field is known (no strict error).
      CHECK(column.admit(dial("v1alpha1", 12, true)) == Verdict{});
      CHECK(column.admit(dial("v1alpha1", 3)) == invalid_spec("size must be even"));
      // Strict decoding names the version the object was sent in.
      Json bogus = dial("v1alpha1", 2);
      bogus["spec"]["bogus"] = 1;
      if (strict) {
        CHECK(column.admit(bogus) == Verdict{400,
                                             "Dial in version \"v1alpha1\" cannot be handled as a Dial: strict "
                                             "decoding error: unknown field \"spec.bogus\"",
                                             {}});
      }
      // v1, the storage version: its own rule, not v1alpha1's.
      CHECK(column.admit(dial("v1", 3)) == Verdict{});
      CHECK(column.admit(dial("v1", 12)) == invalid_spec("size must be at most 10"));
    }
  }
}
