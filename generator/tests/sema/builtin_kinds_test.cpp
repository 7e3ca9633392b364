// The generator's view of rr::builtin comes from the embedded schemas/*.yaml; these checks pin
// what specs and backends rely on (resource names, scope, C++ names, headers).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "sema/builtin_kinds.hpp"
#include "support/embedded.hpp"

namespace rrgen {
namespace {

const ResolvedKind* find(const std::string& group, const std::string& kind) {
  const auto& all = builtin_kinds();
  auto it = std::find_if(all.begin(), all.end(), [&](const ResolvedKind& k) { return k.group == group && k.kind == kind; });
  return it == all.end() ? nullptr : &*it;
}

TEST_CASE("the built-in kinds are the ones rr::builtin compiles") {
  const ResolvedKind* cm = find("", "ConfigMap");
  REQUIRE(cm != nullptr);
  CHECK(cm->version == "v1");
  CHECK(cm->plural == "configmaps");
  CHECK(cm->namespaced);
  CHECK_FALSE(cm->has_status);
  CHECK(cm->builtin);
  CHECK(cm->cpp_type == "k8s::core::v1::ConfigMap");
  CHECK(cm->header == "k8s/core/v1/config_map.hpp");

  const ResolvedKind* deploy = find("apps", "Deployment");
  REQUIRE(deploy != nullptr);
  CHECK(deploy->plural == "deployments");
  CHECK(deploy->has_status);
  CHECK(deploy->cpp_type == "k8s::apps::v1::Deployment");

  const ResolvedKind* lease = find("coordination.k8s.io", "Lease");
  REQUIRE(lease != nullptr);
  CHECK(lease->cpp_type == "k8s::coordination::v1::Lease");

  const ResolvedKind* ns = find("", "Namespace");
  REQUIRE(ns != nullptr);
  CHECK_FALSE(ns->namespaced);

  for (const char* kind : {"Secret", "Service", "ServiceAccount", "Event"}) {
    CAPTURE(kind);
    CHECK(find("", kind) != nullptr);
  }
}

TEST_CASE("embedded files are sorted and found by path") {
  const auto files = embedded_files();
  REQUIRE(!files.empty());
  CHECK(std::is_sorted(files.begin(), files.end(), [](const auto& a, const auto& b) { return a.path < b.path; }));
  CHECK(embedded_file("schemas/core-v1.yaml").find("ConfigMap") != std::string_view::npos);
  CHECK(embedded_file("schemas/none.yaml").empty());
}

}  // namespace
}  // namespace rrgen
