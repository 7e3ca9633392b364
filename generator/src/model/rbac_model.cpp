#include "model/rbac_model.hpp"

#include <algorithm>
#include <array>
#include <utility>

namespace rrgen {

namespace {

using Strings = std::vector<std::string>;
using Field = Strings PolicyRule::*;

void dedupe_and_sort(Strings& values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
}

void normalize_fields(PolicyRule& rule) {
  for (Field field : {&PolicyRule::api_groups, &PolicyRule::resources, &PolicyRule::resource_names,
                      &PolicyRule::verbs, &PolicyRule::non_resource_urls}) {
    dedupe_and_sort(rule.*field);
  }
}

// What a rule applies to (controller-gen's ruleKey). The fields themselves, not their '&'-joined
// text, so ["a&b"] and ["a", "b"] stay apart.
using RuleKey = std::array<Strings, 4>;

RuleKey key_of(const PolicyRule& rule) {
  return {rule.api_groups, rule.resources, rule.resource_names, rule.non_resource_urls};
}

std::string join(const Strings& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += '&';
    out += values[i];
  }
  return out;
}

// controller-gen's ruleKey.String(): the rules' sort order.
std::string key_text(const PolicyRule& rule) {
  return join(rule.api_groups) + " + " + join(rule.resources) + " + " + join(rule.resource_names) + " + " +
         join(rule.non_resource_urls);
}

using RuleMap = std::map<RuleKey, PolicyRule>;

// Adds a normalised rule; a rule with the same key contributes its verbs.
void put(RuleMap& rules, PolicyRule rule) {
  normalize_fields(rule);
  auto [it, inserted] = rules.try_emplace(key_of(rule), rule);
  if (!inserted) {
    Strings& verbs = it->second.verbs;
    verbs.insert(verbs.end(), rule.verbs.begin(), rule.verbs.end());
    dedupe_and_sort(verbs);
  }
}

// Rules equal in every field but `merged` (verbs included) become one rule holding the union of
// their `merged` values.
RuleMap merge_on(const RuleMap& rules, Field merged) {
  std::map<std::array<Strings, 5>, PolicyRule> buckets;
  for (const auto& [key, rule] : rules) {
    PolicyRule rest = rule;
    (rest.*merged).clear();
    std::array<Strings, 5> bucket{rest.api_groups, rest.resources, rest.resource_names, rest.verbs,
                                  rest.non_resource_urls};
    auto [it, inserted] = buckets.try_emplace(std::move(bucket), rule);
    if (!inserted) {
      Strings& into = it->second.*merged;
      into.insert(into.end(), (rule.*merged).begin(), (rule.*merged).end());
    }
  }
  RuleMap out;
  for (auto& [bucket, rule] : buckets) put(out, std::move(rule));
  return out;
}

}  // namespace

void RoleSet::add(const RoleKey& role, PolicyRule rule, const std::string& origin) {
  RoleRules& into = roles[role];
  into.rules.push_back(std::move(rule));
  if (std::find(into.origins.begin(), into.origins.end(), origin) == into.origins.end()) {
    into.origins.insert(std::upper_bound(into.origins.begin(), into.origins.end(), origin), origin);
  }
}

std::vector<PolicyRule> normalize_rules(std::vector<PolicyRule> input) {
  RuleMap rules;
  for (PolicyRule& rule : input) {
    for (std::string& group : rule.api_groups) {
      if (group == "core") group.clear();  // letting people write "core" is nice
    }
    if (rule.resources.empty()) {
      put(rules, std::move(rule));
      continue;
    }
    for (const std::string& resource : rule.resources) {
      PolicyRule one = rule;
      one.resources = {resource};
      put(rules, std::move(one));
    }
  }
  rules = merge_on(rules, &PolicyRule::resources);
  rules = merge_on(rules, &PolicyRule::api_groups);
  rules = merge_on(rules, &PolicyRule::non_resource_urls);

  std::vector<std::pair<std::string, PolicyRule>> sorted;
  sorted.reserve(rules.size());
  for (auto& [key, rule] : rules) {
    if (std::find(rule.verbs.begin(), rule.verbs.end(), "*") != rule.verbs.end()) rule.verbs = {"*"};
    sorted.emplace_back(key_text(rule), std::move(rule));
  }
  // Stable: the rare equal key texts (a value containing '&') keep the RuleKey order.
  std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::vector<PolicyRule> out;
  out.reserve(sorted.size());
  for (auto& entry : sorted) out.push_back(std::move(entry.second));
  return out;
}

RoleSet merge_rule_sources(const std::vector<RuleSource>& sources) {
  RoleSet all;
  for (const RuleSource& source : sources) {
    for (const auto& [key, role] : source.roles.roles) {
      for (const PolicyRule& rule : role.rules) all.add(key, rule, source.origin);
    }
  }
  RoleSet out;
  for (auto& [key, role] : all.roles) {
    out.roles[key] = RoleRules{normalize_rules(std::move(role.rules)), std::move(role.origins)};
  }
  return out;
}

}  // namespace rrgen
