// The RBAC normaliser against the situations controller-tools' own golden test covers
// (pkg/rbac/testdata: markers -> role.yaml), restated here as rules in and rules out, plus the
// cases where rrgen deliberately differs.
#include "model/rbac_model.hpp"

#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <tuple>

using namespace rrgen;

namespace {

using Strings = std::vector<std::string>;

// One +kubebuilder:rbac marker's worth of rule, in the role (namespace) it names.
struct Marker {
  std::string namespace_;
  Strings groups, resources, verbs;
  Strings names{};
  Strings urls{};
};

PolicyRule to_rule(const Marker& m) {
  PolicyRule r;
  r.api_groups = m.groups;
  r.resources = m.resources;
  r.resource_names = m.names;
  r.verbs = m.verbs;
  r.non_resource_urls = m.urls;
  return r;
}

PolicyRule R(Strings groups, Strings resources, Strings verbs, Strings names = {}, Strings urls = {}) {
  return to_rule({"", std::move(groups), std::move(resources), std::move(verbs), std::move(names), std::move(urls)});
}

std::string show(const std::vector<PolicyRule>& rules) {
  std::ostringstream out;
  auto list = [&](const char* name, const Strings& values) {
    if (values.empty()) return;
    out << " " << name << "=[";
    for (std::size_t i = 0; i < values.size(); ++i) out << (i ? "," : "") << '"' << values[i] << '"';
    out << "]";
  };
  for (const auto& r : rules) {
    out << "-";
    list("groups", r.api_groups);
    list("resources", r.resources);
    list("names", r.resource_names);
    list("urls", r.non_resource_urls);
    list("verbs", r.verbs);
    out << "\n";
  }
  return out.str();
}

RoleSet roles_of(const std::vector<Marker>& markers) {
  RuleSource source{"markers", {}};
  for (const Marker& m : markers) source.roles.add(RoleKey{m.namespace_, "manager-role"}, to_rule(m), "markers");
  return merge_rule_sources({source});
}

}  // namespace

TEST_CASE("rbac: controller-gen's golden marker set normalises to its golden roles") {
  const std::vector<Marker> markers = {
      {"", {"batch.io"}, {"cronjobs"}, {"get", "watch", "create"}},
      {"", {"batch.io"}, {"cronjobs/status"}, {"get", "update", "patch"}},
      {"", {"art"}, {"jobs"}, {"get"}},
      {"zoo", {"wave"}, {"jobs"}, {"get"}},
      {"", {"batch", "batch", "batch"}, {"jobs/status"}, {"watch"}},
      {"", {"batch", "cron"}, {"jobs/status"}, {"create", "get"}},
      {"zoo", {"art"}, {"jobs"}, {"get"}},
      {"", {"cron", "batch"}, {"jobs/status"}, {"get", "create"}},
      {"", {"batch"}, {"jobs/status"}, {"watch", "watch"}},
      {"park", {"art"}, {"jobs"}, {"get"}},
      {"", {"batch.io"}, {"cronjobs"}, {"get", "watch"}, {"foo", "bar", "baz"}},
      {"", {"deduplicate-verbs"}, {"some"}, {"get", "list"}},
      {"", {"deduplicate-verbs"}, {"some"}, {"get"}},
      {"", {"deduplicate-verbs"}, {"some"}, {"list"}},
      {"", {"deduplicate-resources"}, {"one"}, {"create"}},
      {"", {"deduplicate-resources"}, {"two"}, {"create"}},
      {"", {"deduplicate-resources"}, {"three"}, {"create"}},
      {"", {"deduplicate-groups1"}, {"foo"}, {"patch"}},
      {"", {"deduplicate-groups2"}, {"foo"}, {"patch"}},
      {"", {"deduplicate-groups3"}, {"foo"}, {"patch"}},
      {"", {"deduplicate-all"}, {"foo", "bar"}, {"get", "list"}},
      {"", {"deduplicate-all"}, {"foo"}, {"get"}},
      {"", {"deduplicate-all"}, {"bar"}, {"list"}},
      {"", {"deduplicate-groups4"}, {"xyz"}, {"get", "update", "patch"}},
      {"", {"deduplicate-groups4"}, {"xyz"}, {"*"}},
      {"", {"deduplicate-all-group"}, {"foo", "bar"}, {"get", "list"}},
      {"", {"not-deduplicate-resources"}, {"some"}, {"get"}},
      {"", {"not-deduplicate-resources"}, {"another"}, {"list"}},
      {"", {"not-deduplicate-groups1"}, {"some"}, {"get"}},
      {"", {"not-deduplicate-groups2"}, {"some"}, {"list"}},
      {"", {}, {}, {"get"}, {}, {"/url-to-duplicate"}},
      {"", {}, {}, {"get"}, {}, {"/another/url-to-duplicate"}},
      {"", {"core"}, {"deduplicate"}, {"list"}},
      {"", {""}, {"me"}, {"list"}},
      {"", {"core", "", "some-other-to-deduplicate-with-core"}, {"me"}, {"list", "get"}},
      {"here", {"deduplicate-groups5"}, {"abc"}, {"get", "update", "patch", "create"}},
      {"here", {"deduplicate-groups5"}, {"abc"}, {"*"}},
      {"infrastructure", {"apps"}, {"deployments"}, {"get", "list", "watch", "update", "patch"}},
      {"users", {""}, {"secrets"}, {"get", "list", "watch"}},
  };
  const RoleSet roles = roles_of(markers);

  // Roles come out ordered by (namespace, name): the ClusterRole first.
  std::vector<std::string> namespaces;
  for (const auto& [key, role] : roles.roles) namespaces.push_back(key.namespace_);
  CHECK(namespaces == Strings{"", "here", "infrastructure", "park", "users", "zoo"});

  const std::vector<PolicyRule> cluster = {
      R({}, {}, {"get"}, {}, {"/another/url-to-duplicate", "/url-to-duplicate"}),
      R({""}, {"deduplicate", "me"}, {"list"}),
      R({"", "some-other-to-deduplicate-with-core"}, {"me"}, {"get", "list"}),
      R({"art"}, {"jobs"}, {"get"}),
      R({"batch"}, {"jobs/status"}, {"watch"}),
      R({"batch", "cron"}, {"jobs/status"}, {"create", "get"}),
      R({"batch.io"}, {"cronjobs"}, {"create", "get", "watch"}),
      R({"batch.io"}, {"cronjobs"}, {"get", "watch"}, {"bar", "baz", "foo"}),
      R({"batch.io"}, {"cronjobs/status"}, {"get", "patch", "update"}),
      R({"deduplicate-all", "deduplicate-all-group"}, {"bar", "foo"}, {"get", "list"}),
      R({"deduplicate-groups1", "deduplicate-groups2", "deduplicate-groups3"}, {"foo"}, {"patch"}),
      R({"deduplicate-groups4"}, {"xyz"}, {"*"}),
      R({"deduplicate-resources"}, {"one", "three", "two"}, {"create"}),
      R({"deduplicate-verbs"}, {"some"}, {"get", "list"}),
      R({"not-deduplicate-groups1", "not-deduplicate-resources"}, {"some"}, {"get"}),
      R({"not-deduplicate-groups2"}, {"some"}, {"list"}),
      R({"not-deduplicate-resources"}, {"another"}, {"list"}),
  };
  CHECK(show(roles.roles.at(RoleKey{"", "manager-role"}).rules) == show(cluster));
  CHECK(roles.roles.at(RoleKey{"here", "manager-role"}).rules == std::vector{R({"deduplicate-groups5"}, {"abc"}, {"*"})});
  CHECK(roles.roles.at(RoleKey{"infrastructure", "manager-role"}).rules ==
        std::vector{R({"apps"}, {"deployments"}, {"get", "list", "patch", "update", "watch"})});
  CHECK(roles.roles.at(RoleKey{"park", "manager-role"}).rules == std::vector{R({"art"}, {"jobs"}, {"get"})});
  CHECK(roles.roles.at(RoleKey{"users", "manager-role"}).rules == std::vector{R({""}, {"secrets"}, {"get", "list", "watch"})});
  CHECK(roles.roles.at(RoleKey{"zoo", "manager-role"}).rules == std::vector{R({"art", "wave"}, {"jobs"}, {"get"})});
}

TEST_CASE("rbac: every field is deduplicated and sorted, 'core' is the empty group") {
  CHECK(normalize_rules({R({"core", "apps", "core"}, {"b", "a", "b"}, {"watch", "get", "get"}, {"y", "x", "x"})}) ==
        std::vector{R({"", "apps"}, {"a", "b"}, {"get", "watch"}, {"x", "y"})});
}

TEST_CASE("rbac: rules that differ in resource names or URLs are not merged") {
  CHECK(show(normalize_rules({R({"g"}, {"a"}, {"get"}, {"n1"}), R({"g"}, {"a"}, {"get"}, {"n2"}), R({"g"}, {"a"}, {"get"})})) ==
        show({R({"g"}, {"a"}, {"get"}), R({"g"}, {"a"}, {"get"}, {"n1"}), R({"g"}, {"a"}, {"get"}, {"n2"})}));
}

TEST_CASE("rbac: no subsumption: a rule another rule already covers is kept") {
  // "*" on a grants everything get on a does, but the two keys differ (resource names), so both stay.
  CHECK(normalize_rules({R({"g"}, {"a"}, {"*"}), R({"g"}, {"a"}, {"get"}, {"one"})}).size() == 2);
  // A group wildcard does not absorb a concrete group either.
  CHECK(normalize_rules({R({"*"}, {"a"}, {"get"}), R({"g"}, {"a"}, {"list"})}).size() == 2);
}

TEST_CASE("rbac: '*' collapses verbs only after merging, as controller-gen does") {
  // [get, *] and [*] are different verb sets while resources are merged, so a and b stay apart.
  CHECK(show(normalize_rules({R({"g"}, {"a"}, {"get", "*"}), R({"g"}, {"b"}, {"*"})})) ==
        show({R({"g"}, {"a"}, {"*"}), R({"g"}, {"b"}, {"*"})}));
}

TEST_CASE("rbac: rules a merge step brings onto the same key keep all their verbs") {
  // Groups merge turns (g1, a, get) + (g2, a, get) into (g1&g2, a, get), the key of the third rule.
  // controller-gen keeps one of the two at random; both verb sets survive here.
  CHECK(normalize_rules({R({"g1"}, {"a"}, {"get"}), R({"g2"}, {"a"}, {"get"}), R({"g1", "g2"}, {"a"}, {"list"})}) ==
        std::vector{R({"g1", "g2"}, {"a"}, {"get", "list"})});
}

TEST_CASE("rbac: field values are compared whole, never through their joined text") {
  // "a&b" and [a, b] join to the same text; they are different groups.
  CHECK(normalize_rules({R({"a&b"}, {"r"}, {"get"}), R({"a", "b"}, {"r"}, {"list"})}).size() == 2);
}

TEST_CASE("rbac: sources merge into the same role and record their origins") {
  RuleSource derived{"derived", {}};
  derived.roles.add({"", "m"}, R({""}, {"configmaps"}, {"get", "list", "watch"}), "derived");
  derived.roles.add({"ns", "leader"}, R({"coordination.k8s.io"}, {"leases"}, {"get"}), "derived");
  RuleSource analysis{"analysis of hooks.cpp", {}};
  analysis.roles.add({"", "m"}, R({"core"}, {"secrets"}, {"watch", "get", "list"}), "analysis of hooks.cpp");
  analysis.roles.add({"", "m"}, R({""}, {"configmaps"}, {"create"}), "analysis of hooks.cpp");

  const RoleSet merged = merge_rule_sources({derived, analysis});
  REQUIRE(merged.roles.size() == 2);
  const RoleRules& m = merged.roles.at({"", "m"});
  CHECK(m.origins == Strings{"analysis of hooks.cpp", "derived"});
  CHECK(show(m.rules) == show({R({""}, {"configmaps"}, {"create", "get", "list", "watch"}),
                               R({""}, {"secrets"}, {"get", "list", "watch"})}));
  CHECK(merged.roles.at({"ns", "leader"}).origins == Strings{"derived"});
}

TEST_CASE("rbac: the result does not depend on the order of the input rules") {
  std::vector<PolicyRule> rules = {R({"g1"}, {"a"}, {"get"}), R({"g2"}, {"a"}, {"get"}), R({"g1"}, {"b"}, {"get"}),
                                   R({"g1", "g2"}, {"a"}, {"list"}), R({}, {}, {"get"}, {}, {"/x"}),
                                   R({"g2"}, {"b"}, {"get"}, {"n"})};
  const std::vector<PolicyRule> expected = normalize_rules(rules);
  CHECK(expected.size() == 5);
  auto less = [](const PolicyRule& a, const PolicyRule& b) {
    return std::tie(a.api_groups, a.resources, a.resource_names, a.non_resource_urls, a.verbs) <
           std::tie(b.api_groups, b.resources, b.resource_names, b.non_resource_urls, b.verbs);
  };
  std::sort(rules.begin(), rules.end(), less);
  int permutations = 0;
  do {
    ++permutations;
    CHECK(normalize_rules(rules) == expected);
  } while (std::next_permutation(rules.begin(), rules.end(), less));
  CHECK(permutations == 720);
}
