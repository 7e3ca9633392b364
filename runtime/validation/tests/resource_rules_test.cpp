// The per-resource name rules and the create/update metadata checks around them.
#include <doctest/doctest.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "messages.hpp"
#include "rr/validation/resource_rules.hpp"

using namespace rr::validation;
using rr::Json;

namespace {

using Texts = std::vector<std::string>;

Texts rules_texts(const ErrorList& errs) {
  Texts out;
  for (const FieldError& e : errs) out.push_back(e.to_string());
  return out;
}

NameRule rule_of(std::string_view group, std::string_view resource) {
  const auto rules = builtin_metadata_rules(group, resource);
  REQUIRE(rules.has_value());
  return rules->name;
}

}  // namespace

TEST_CASE("the name table: Service a DNS-1035 label, Namespace a label, RBAC path segments, most subdomains") {
  CHECK(rule_of("", "services") == NameRule::DNS1035Label);
  CHECK(rule_of("", "namespaces") == NameRule::DNSLabel);
  CHECK(rule_of("rbac.authorization.k8s.io", "roles") == NameRule::PathSegment);
  CHECK(rule_of("rbac.authorization.k8s.io", "clusterrolebindings") == NameRule::PathSegment);
  CHECK(rule_of("", "pods") == NameRule::DNSSubdomain);
  CHECK(rule_of("apps", "deployments") == NameRule::DNSSubdomain);
  CHECK(rule_of("", "persistentvolumeclaims") == NameRule::DNSSubdomain);
  CHECK(rule_of("certificates.k8s.io", "certificatesigningrequests") == NameRule::Unconstrained);
  CHECK_FALSE(builtin_metadata_rules("", "pod").has_value());
  CHECK_FALSE(builtin_metadata_rules("example.com", "widgets").has_value());
  CHECK(custom_resource_metadata_rules().name == NameRule::DNSSubdomain);
}

TEST_CASE("the name table has one row per resource") {
  std::set<std::pair<std::string_view, std::string_view>> seen;
  for (const NameTableEntry& e : builtin_name_table())
    CHECK_MESSAGE(seen.insert({e.group, e.resource}).second, std::string(e.resource));
  CHECK(seen.size() > 50);
}

TEST_CASE("create: the kind's rule first; the generic path-segment check only when it passed") {
  const MetadataRules service = *builtin_metadata_rules("", "services");
  CHECK(rules_texts(validate_create_metadata({{"name", "my.svc"}, {"namespace", "ns"}}, true, service)) ==
        Texts{"metadata.name: Invalid value: \"my.svc\": " + test::kDNS1035});
  const MetadataRules role = *builtin_metadata_rules("rbac.authorization.k8s.io", "roles");
  CHECK(
      rules_texts(validate_create_metadata({{"name", "system:Controller"}, {"namespace", "ns"}}, true, role)).empty());
  CHECK(rules_texts(validate_create_metadata({{"name", "a/b"}, {"namespace", "ns"}}, true, role)) ==
        Texts{"metadata.name: Invalid value: \"a/b\": may not contain '/'"});
  // A CertificateSigningRequest's own rule accepts anything; the generic one still refuses '%'.
  const MetadataRules csr = *builtin_metadata_rules("certificates.k8s.io", "certificatesigningrequests");
  CHECK(rules_texts(validate_create_metadata({{"name", "Node:CSR"}}, false, csr)).empty());
  CHECK(rules_texts(validate_create_metadata({{"name", "50%"}}, false, csr)) ==
        Texts{"metadata.name: Invalid value: \"50%\": may not contain '%'"});
  // PodDisruptionBudget validates no metadata of its own: upper case passes.
  const MetadataRules pdb = *builtin_metadata_rules("policy", "poddisruptionbudgets");
  CHECK(rules_texts(validate_create_metadata({{"name", "Web"}, {"namespace", "ns"}}, true, pdb)).empty());
}

TEST_CASE("create: built-in kinds refuse unqualified finalizers, custom resources do not") {
  const Json meta = {{"name", "a"}, {"namespace", "ns"}, {"finalizers", Json::array({"cleanup"})}};
  CHECK(rules_texts(validate_create_metadata(meta, true, *builtin_metadata_rules("", "configmaps"))) ==
        Texts{"metadata.finalizers[0]: Invalid value: \"cleanup\": name is neither a standard finalizer name nor is it "
              "fully qualified"});
  CHECK(rules_texts(validate_create_metadata(meta, true, custom_resource_metadata_rules())).empty());
}

TEST_CASE("update: generic, update-only and finalizer findings, each once") {
  const Json old = {{"name", "a"}, {"namespace", "ns"}, {"uid", "u"}, {"resourceVersion", "1"}};
  Json now = old;
  now["labels"] = {{"app", "has space"}};
  now["uid"] = "v";
  CHECK(rules_texts(validate_update_metadata(now, old, true, *builtin_metadata_rules("", "configmaps"))) ==
        Texts{"metadata.labels: Invalid value: \"has space\": " + test::kLabelValue,
              "metadata.uid: Invalid value: \"v\": field is immutable"});
}
