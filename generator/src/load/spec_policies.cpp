#include "load/spec_policies.hpp"

#include <algorithm>
#include <utility>

#include "load/spec_values.hpp"
#include "load/yaml_copy.hpp"
#include "support/k8s_names.hpp"

namespace rrgen {
namespace spec_policies {
namespace {

const auto quote = spec_quote;

bool listed(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

std::string alternatives(const std::vector<std::string>& allowed) {
  std::string out;
  for (std::size_t i = 0; i < allowed.size(); ++i)
    out += (i == 0 ? "" : i + 1 == allowed.size() ? " or " : ", ") + quote(allowed[i]);
  return out;
}

// One string member of a list item: `validations[].message` and the like.
struct Field {
  std::string name;
  bool required = false;
  std::vector<std::string> allowed = {};  // empty: any string
};

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// The apiVersion a policy kind is written in ("" for another kind): v1 for validating policies,
// v1beta1 (what Kubernetes 1.35 serves) for mutating ones.
std::string_view policy_api_version(std::string_view kind) {
  if (kind == "ValidatingAdmissionPolicy" || kind == "ValidatingAdmissionPolicyBinding")
    return "admissionregistration.k8s.io/v1";
  if (kind == "MutatingAdmissionPolicy" || kind == "MutatingAdmissionPolicyBinding")
    return "admissionregistration.k8s.io/v1beta1";
  return "";
}

const Node* scalar_at(const Node& n, std::initializer_list<const char*> path) {
  const Node* at = &n;
  for (const char* key : path) {
    at = at->is_mapping() ? at->find(key) : nullptr;
    if (!at) return nullptr;
  }
  return at->is_scalar() ? at : nullptr;
}

class PoliciesReader : SpecValues {
 public:
  PoliciesReader(const PolicyFiles& files, Diagnostics& diags) : SpecValues(diags), files_(files) {}

  std::vector<SpecAdmissionPolicy> read(const Node& n) {
    std::vector<SpecAdmissionPolicy> out;
    if (!n.is_sequence()) {
      wrong_type(n, "admissionPolicies", "a sequence of policies");
      return out;
    }
    for (const Node& item : n.children) {
      auto policy = entry(item);
      if (!policy) continue;
      const auto same = std::find_if(out.begin(), out.end(), [&](const auto& p) { return p.name == policy->name; });
      if (same != out.end() && !policy->name.empty()) {
        diags_.error(policy->name_location, "spec-duplicate-name",
                     "policy name " + quote(policy->name) + " is used twice");
        diags_.note(same->name_location, "first used here");
        continue;
      }
      out.push_back(std::move(*policy));
    }
    return out;
  }

 private:
  const PolicyFiles& files_;

  void bad_file(Location at, std::string message) { diags_.error(at, "spec-bad-policy-file", std::move(message)); }

  // `file:`: one policy and its bindings, kinds and versions as Kubernetes 1.35 serves them; the
  // policy names the entry and gives its type.
  void policy_file(const Node& n, SpecAdmissionPolicy& out) {
    const auto path = string_of(n, "file");
    if (!path) return;
    out.file = *path;
    if (!files_.sources)
      return bad_file(n.location, "'file' needs a spec read from a file (its folder is where the path starts)");
    const bool absolute = path->starts_with('/') || files_.folder.empty();
    const std::string full = absolute ? *path : files_.folder + "/" + *path;
    Diagnostics reading;
    const std::string* name = files_.sources->read(full, reading);
    if (!name)
      return bad_file(n.location,
                      reading.all().empty() ? "cannot read " + quote(*path) : reading.all().front().message);
    const std::size_t errors_before = diags_.error_count();
    const std::vector<Node> docs = load_yaml(name, files_.sources->content(name), diags_);
    const Node* policy = nullptr;
    std::vector<const Node*> bindings;
    for (const Node& doc : docs) {
      if (doc.is_scalar() && doc.is_null()) continue;
      const Node* api = scalar_at(doc, {"apiVersion"});
      const Node* kind = scalar_at(doc, {"kind"});
      if (!api || !kind) {
        bad_file(doc.location, "each document must be an admission policy or binding, with apiVersion and kind");
        continue;
      }
      const std::string_view expected = policy_api_version(kind->text);
      if (expected.empty()) {
        bad_file(kind->location,
                 "kind " + quote(kind->text) +
                     " is not ValidatingAdmissionPolicy, MutatingAdmissionPolicy or one of their bindings");
        continue;
      }
      if (api->text != expected) {
        bad_file(api->location,
                 kind->text + " is " + std::string(expected) + " in Kubernetes 1.35, not " + quote(api->text));
        continue;
      }
      if (!ends_with(kind->text, "Binding")) {
        if (policy) {
          bad_file(doc.location, "a policy file holds one policy and its bindings; a second policy starts here");
          continue;
        }
        policy = &doc;
      } else {
        bindings.push_back(&doc);
      }
      out.documents.push_back(yaml_copy(doc));
    }
    if (diags_.error_count() != errors_before) return;
    if (!policy)
      return bad_file(n.location, quote(*path) + " holds no ValidatingAdmissionPolicy or MutatingAdmissionPolicy");
    out.mutating = scalar_at(*policy, {"kind"})->text == "MutatingAdmissionPolicy";
    const Node* policy_name = scalar_at(*policy, {"metadata", "name"});
    if (!policy_name) return bad_file(policy->location, "the policy needs a metadata.name");
    if (!is_dns1123_subdomain(policy_name->text))  // it names a file of config/policy too
      return bad_file(policy_name->location, "policy name " + quote(policy_name->text) + " must be a DNS subdomain");
    out.name = policy_name->text;
    out.name_location = policy_name->location;
    if (bindings.empty())
      bad_file(policy->location,
               "the policy has no binding in " + quote(*path) + ": without one it applies to nothing");
    for (const Node* b : bindings) {
      const Node* bound = scalar_at(*b, {"spec", "policyName"});
      const bool same_type = (scalar_at(*b, {"kind"})->text == "MutatingAdmissionPolicyBinding") == out.mutating;
      if (!bound || bound->text != out.name || !same_type)
        bad_file(bound ? bound->location : b->location,
                 "each binding's spec.policyName must be the file's policy, " + quote(out.name));
    }
  }

  std::optional<std::string> choice(const Node& n, std::string_view key, const std::vector<std::string>& allowed) {
    auto text = string_of(n, key);
    if (!text) return std::nullopt;
    if (listed(allowed, *text)) return text;
    diags_.error(n.location, "spec-bad-value",
                 quote(key) + " must be " + alternatives(allowed) + ", not " + quote(*text));
    return std::nullopt;
  }

  std::vector<std::string> choices(const Node& n, std::string_view key, const std::vector<std::string>& allowed) {
    std::vector<std::string> out;
    if (!n.is_sequence() || n.children.empty()) {
      wrong_type(n, key, "a non-empty sequence of " + alternatives(allowed));
      return out;
    }
    for (const Node& item : n.children)
      if (auto c = choice(item, key, allowed); c && !listed(out, *c)) out.push_back(*c);
    return out;
  }

  std::vector<std::string> strings(const Node& n, std::string_view key) {
    std::vector<std::string> out;
    if (!n.is_sequence() || n.children.empty()) {
      wrong_type(n, key, "a non-empty sequence of strings");
      return out;
    }
    for (const Node& item : n.children)
      if (auto s = string_of(item, key)) out.push_back(*s);
    return out;
  }

  // A sequence of mappings whose members are the given strings, copied in the fields' order.
  Yaml items(const Node& n, const std::string& key, const std::vector<Field>& fields) {
    Yaml out = Yaml::seq();
    if (!n.is_sequence()) {
      wrong_type(n, key, "a sequence of mappings");
      return out;
    }
    std::vector<std::string> names;
    for (const Field& f : fields) names.push_back(f.name);
    for (const Node& item : n.children) {
      if (!item.is_mapping()) {
        diags_.error(item.location, "spec-wrong-type",
                     "each item of " + quote(key) + " must be a mapping, not " + describe(item));
        continue;
      }
      for (std::size_t i = 0; i < item.keys.size(); ++i)
        if (!listed(names, item.keys[i])) unknown_key(item.keys[i], item.key_locations[i], names);
      Yaml copy = Yaml::map();
      for (const Field& f : fields) {
        const Node* value = item.find(f.name);
        if (!value) {
          if (f.required)
            diags_.error(item.location, "spec-missing-key", "each item of " + quote(key) + " needs " + quote(f.name));
          continue;
        }
        auto text = f.allowed.empty() ? string_of(*value, f.name) : choice(*value, f.name, f.allowed);
        if (text && f.required && text->empty())
          diags_.error(value->location, "spec-bad-value", quote(f.name) + " must not be empty");
        if (text) copy.set(f.name, *text);
      }
      out.push(std::move(copy));
    }
    return out;
  }

  // `mutations:` written flat ({patchType, expression}) and copied in the API's shape.
  Yaml mutations(const Node& n) {
    Yaml flat_items = items(n, "mutations",
                            {{"patchType", true, {"ApplyConfiguration", "JSONPatch"}}, {"expression", true}});
    Yaml out = Yaml::seq();
    for (const Node& item : n.is_sequence() ? n.children : std::vector<Node>{}) {
      const Node* type = item.is_mapping() ? item.find("patchType") : nullptr;
      const Node* expression = item.is_mapping() ? item.find("expression") : nullptr;
      if (!type || !expression || !type->is_scalar() || !expression->is_scalar()) continue;
      const bool apply = type->text == "ApplyConfiguration";
      Yaml m = Yaml::map();
      m.set("patchType", type->text);
      m.set(apply ? "applyConfiguration" : "jsonPatch", Yaml::map().set("expression", expression->text));
      out.push(std::move(m));
    }
    return out;
  }

  std::vector<SpecPolicyRule> rules(const Node& n) {
    std::vector<SpecPolicyRule> out;
    if (!n.is_sequence() || n.children.empty()) {
      wrong_type(n, "resources", "a non-empty sequence of {group, versions, resources, operations}");
      return out;
    }
    static const std::vector<std::string> keys = {"group", "versions", "resources", "operations"};
    for (const Node& item : n.children) {
      if (!item.is_mapping()) {
        diags_.error(item.location, "spec-wrong-type",
                     "each item of 'resources' must be a mapping, not " + describe(item));
        continue;
      }
      SpecPolicyRule rule;
      rule.location = item.location;
      rule.operations = {"CREATE", "UPDATE"};
      for (std::size_t i = 0; i < item.keys.size(); ++i) {
        const std::string& key = item.keys[i];
        const Node& value = item.children[i];
        if (key == "group") rule.group = string_of(value, key).value_or("");
        else if (key == "versions") rule.versions = strings(value, key);
        else if (key == "resources") rule.resources = strings(value, key);
        else if (key == "operations")
          rule.operations = choices(value, key, {"CREATE", "UPDATE", "DELETE", "CONNECT", "*"});
        else unknown_key(key, item.key_locations[i], keys);
      }
      if (!item.find("versions")) diags_.error(item.location, "spec-missing-key", "a resource rule needs 'versions'");
      if (!item.find("resources"))
        diags_.error(item.location, "spec-missing-key", "a resource rule needs 'resources' (plural names)");
      out.push_back(std::move(rule));
    }
    return out;
  }

  std::optional<SpecPolicyTest> test(const Node& n, bool mutating) {
    if (!n.is_mapping()) {
      diags_.error(n.location, "spec-wrong-type", "each item of 'tests' must be a mapping, not " + describe(n));
      return std::nullopt;
    }
    SpecPolicyTest out;
    out.location = n.location;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (key == "object" || key == "expect") {
        if (!value.is_mapping()) {
          wrong_type(value, key, "a mapping (the object, with apiVersion and kind)");
        } else if (key == "object") {
          out.object = yaml_copy(value);
          for (const char* member : {"apiVersion", "kind"})
            if (!value.find(member))
              diags_.error(value.location, "spec-missing-key", std::string("the object needs '") + member + "'");
        } else if (!mutating) {
          diags_.error(n.key_locations[i], "spec-unknown-key", "'expect' applies to Mutating policies only");
        } else {
          out.expect = yaml_copy(value);
        }
      } else if (key == "operation") {
        // A CREATE is what the in-process check sends (an admission dry run); UPDATE and DELETE
        // would need a stored old object.
        choice(value, key, {"CREATE"});
      } else if (key == "allowed") {
        if (value.is_scalar() && resolve_scalar(value) == ScalarType::Bool) out.allowed = to_json_text(value) == "true";
        else wrong_type(value, key, "true or false");
      } else if (key == "message") {
        out.message = string_of(value, key).value_or("");
      } else {
        unknown_key(key, n.key_locations[i], spec_policy_test_keys());
      }
    }
    if (!n.find("object")) diags_.error(n.location, "spec-missing-key", "a policy test needs an 'object'");
    if (out.allowed && n.find("message"))
      diags_.error(n.key_location("message"), "spec-bad-value",
                   "'message' is the refusal's: it needs 'allowed: false'");
    if (!out.allowed && out.expect)
      diags_.error(n.key_location("expect"), "spec-bad-value",
                   "'expect' is the admitted object: it needs 'allowed: true'");
    return out;
  }

  std::optional<SpecAdmissionPolicy> entry(const Node& n) {
    if (!n.is_mapping()) {
      diags_.error(n.location, "spec-wrong-type",
                   "each item of 'admissionPolicies' must be a mapping, not " + describe(n));
      return std::nullopt;
    }
    SpecAdmissionPolicy out;
    out.location = n.location;
    // The type first (or the file that gives it): it decides which keys apply.
    const Node* file = n.find("file");
    if (file) {
      policy_file(*file, out);
    } else if (const Node* type = n.find("type")) {
      out.mutating = choice(*type, "type", {"Validating", "Mutating"}).value_or("") == "Mutating";
    }
    const char* other = out.mutating ? "Validating" : "Mutating";
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      const bool validating_only = key == "validations" || key == "validationActions";
      if (file && key != "file" && key != "tests" && listed(spec_policy_keys(), key)) {
        diags_.error(n.key_locations[i], "spec-unknown-key",
                     quote(key) + " comes from the policy file; with 'file' only 'tests' applies");
      } else if (key == "file") {
        continue;
      } else if ((validating_only && out.mutating) || (key == "mutations" && !out.mutating)) {
        diags_.error(n.key_locations[i], "spec-unknown-key", quote(key) + " applies to " + other + " policies only");
      } else if (key == "name") {
        out.name_location = value.location;
        if (auto name = string_of(value, key)) {
          if (!is_dns1123_subdomain(*name))
            diags_.error(value.location, "spec-bad-value",
                         "policy name " + quote(*name) +
                             " must be a DNS subdomain (it names the policy): lower-case letters, digits, '-' and '.'");
          out.name = *name;
        }
      } else if (key == "type") {
        continue;
      } else if (key == "resources") {
        out.resources = rules(value);
      } else if (key == "validations") {
        out.validations = items(value, key,
                                {{"expression", true},
                                 {"message"},
                                 {"messageExpression"},
                                 {"reason", false, {"Unauthorized", "Forbidden", "Invalid", "RequestEntityTooLarge"}}});
      } else if (key == "mutations") {
        out.mutations = mutations(value);
      } else if (key == "matchConditions" || key == "variables") {
        Yaml& into = key == "variables" ? out.variables : out.match_conditions;
        into = items(value, key, {{"name", true}, {"expression", true}});
      } else if (key == "failurePolicy") {
        out.failure_policy = choice(value, key, {"Fail", "Ignore"}).value_or(out.failure_policy);
      } else if (key == "validationActions") {
        out.validation_actions = choices(value, key, {"Deny", "Warn", "Audit"});
        if (listed(out.validation_actions, "Deny") && listed(out.validation_actions, "Warn"))
          diags_.error(value.location, "spec-bad-value", "validationActions may not contain both 'Deny' and 'Warn'");
      } else if (key == "tests") {
        if (!value.is_sequence()) wrong_type(value, key, "a sequence of tests");
        for (const Node& item : value.is_sequence() ? value.children : std::vector<Node>{})
          if (auto t = test(item, out.mutating)) out.tests.push_back(std::move(*t));
      } else {
        unknown_key(key, n.key_locations[i], spec_policy_keys());
      }
    }
    if (file) return out;
    if (!n.find("name")) diags_.error(n.location, "spec-missing-key", "a policy needs a 'name' (its object's name)");
    if (!n.find("type"))
      diags_.error(n.location, "spec-missing-key", "a policy needs a 'type': Validating or Mutating");
    const char* needed = out.mutating ? "mutations" : "validations";
    const Node* list = n.find(needed);
    if (n.find("type") && (!list || (list->is_sequence() && list->children.empty())))
      diags_.error(list ? list->location : n.location, "spec-missing-key",
                   std::string("a ") + (out.mutating ? "Mutating" : "Validating") + " policy needs at least one of '" +
                       needed + "'");
    return out;
  }
};

}  // namespace
}  // namespace spec_policies

std::vector<SpecAdmissionPolicy> read_spec_policies(const Node& n, const PolicyFiles& files, Diagnostics& diags) {
  return spec_policies::PoliciesReader(files, diags).read(n);
}

const std::vector<std::string>& spec_policy_keys() {
  static const std::vector<std::string> keys = {
      "name",      "type",          "resources",         "validations", "mutations", "matchConditions",
      "variables", "failurePolicy", "validationActions", "tests",       "file"};
  return keys;
}

const std::vector<std::string>& spec_policy_test_keys() {
  static const std::vector<std::string> keys = {"object", "operation", "allowed", "message", "expect"};
  return keys;
}

}  // namespace rrgen
