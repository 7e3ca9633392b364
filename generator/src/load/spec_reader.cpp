#include "load/spec_reader.hpp"

#include <algorithm>
#include <cctype>
#include <utility>

#include "load/spec_duck.hpp"
#include "load/spec_metrics.hpp"
#include "load/spec_policies.hpp"
#include "load/spec_watches.hpp"
#include "load/spec_webhooks.hpp"
#include "support/ascii.hpp"
#include "support/image_reference.hpp"
#include "support/k8s_names.hpp"
#include "support/naming.hpp"

namespace rrgen {
namespace {

using ascii::is_alnum;

// ---- character classes (Kubernetes' name rules are in support/k8s_names.hpp) -------------------

bool is_pascal_identifier(std::string_view s) {
  return !s.empty() && s.front() >= 'A' && s.front() <= 'Z' && std::all_of(s.begin(), s.end(), is_alnum);
}
bool is_kind_name(std::string_view s) {
  return !s.empty() && std::isalpha(static_cast<unsigned char>(s.front())) && std::all_of(s.begin(), s.end(), is_alnum);
}

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// "like 'MyName'" when PascalCasing fixes the name, "" otherwise.
std::string pascal_hint(std::string_view s) {
  if (std::none_of(s.begin(), s.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; })) return "";
  const std::string fixed = pascal_case(s);
  return is_pascal_identifier(fixed) ? " like " + quoted(fixed) : std::string();
}

std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t above = row[j];
      const bool same = std::tolower(static_cast<unsigned char>(a[i - 1])) == std::tolower(static_cast<unsigned char>(b[j - 1]));
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (same ? 0 : 1)});
      diagonal = above;
    }
  }
  return row[b.size()];
}

bool contains(const std::vector<std::string>& list, std::string_view s) {
  return std::find(list.begin(), list.end(), s) != list.end();
}

const std::vector<std::string>& all_step_keys() {
  static const std::vector<std::string> keys = [] {
    std::vector<std::string> out;
    for (StepType t : {StepType::Sync, StepType::Child, StepType::ChildSet})
      for (const auto& k : spec_step_keys(t))
        if (!contains(out, k)) out.push_back(k);
    return out;
  }();
  return keys;
}

constexpr std::string_view kStepTypeKeys[] = {"sync", "child", "childSet"};
constexpr StepType kStepTypes[] = {StepType::Sync, StepType::Child, StepType::ChildSet};

// Which step types take an option, for "'kind' applies to child and childSet steps only".
std::string step_types_with(std::string_view key) {
  std::vector<std::string> names;
  for (std::size_t i = 0; i < 3; ++i)
    if (contains(spec_step_keys(kStepTypes[i]), key)) names.emplace_back(kStepTypeKeys[i]);
  if (names.size() == 1) return names[0] + " steps only";
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "" : i + 1 == names.size() ? " and " : ", ") + names[i];
  return out + " steps only";
}

class SpecReader {
 public:
  SpecReader(Diagnostics& diags, SourceSet* sources) : diags_(diags), sources_(sources) {}

  std::optional<ReconcilerSpec> read(const std::string* file, std::string_view text) {
    const std::size_t errors_before = diags_.error_count();
    std::vector<Node> loaded = load_yaml(file, text, diags_);
    if (diags_.error_count() != errors_before) return std::nullopt;
    std::vector<const Node*> docs;
    for (const auto& d : loaded)
      if (!(d.is_scalar() && d.is_null())) docs.push_back(&d);  // empty documents around '---'
    if (docs.empty()) {
      diags_.error({file, 0, 0}, "spec-document-count",
                   "the spec is empty; it must be a mapping with apiVersion: rrgen.dev/v1alpha1 and kind: ReconcilerSpec");
      return std::nullopt;
    }
    if (docs.size() > 1) {
      diags_.error(docs[1]->location, "spec-document-count", "a spec file holds exactly one YAML document; a second one starts here");
      return std::nullopt;
    }
    ReconcilerSpec spec;
    spec.file = file;
    read_document(*docs.front(), spec);
    if (diags_.error_count() != errors_before) return std::nullopt;
    return spec;
  }

 private:
  Diagnostics& diags_;
  SourceSet* sources_;  // reads a policy's `file:`; nullptr for a spec given as text

  // ---- typed values -----------------------------------------------------------------------------

  void wrong_type(const Node& n, std::string_view what, std::string_view expected) {
    diags_.error(n.location, "spec-wrong-type", quoted(what) + " must be " + std::string(expected) + ", not " + describe(n));
  }

  std::optional<std::string> string_of(const Node& n, std::string_view key) {
    if (n.is_scalar() && resolve_scalar(n) == ScalarType::String) return n.text;
    wrong_type(n, key, "a string");
    return std::nullopt;
  }

  std::optional<bool> bool_of(const Node& n, std::string_view key) {
    if (n.is_scalar() && resolve_scalar(n) == ScalarType::Bool) return to_json_text(n) == "true";
    wrong_type(n, key, "true or false");
    return std::nullopt;
  }

  // The strings of a sequence with their nodes; a wrong item is reported and skipped.
  std::vector<std::pair<std::string, const Node*>> strings_of(const Node& n, std::string_view key) {
    std::vector<std::pair<std::string, const Node*>> out;
    if (!n.is_sequence()) {
      wrong_type(n, key, "a sequence of strings");
      return out;
    }
    for (const auto& item : n.children) {
      if (item.is_scalar() && resolve_scalar(item) == ScalarType::String) {
        out.emplace_back(item.text, &item);
      } else {
        diags_.error(item.location, "spec-wrong-type", "each item of " + quoted(key) + " must be a string, not " + describe(item));
      }
    }
    return out;
  }

  std::vector<std::string> plain_strings_of(const Node& n, std::string_view key) {
    std::vector<std::string> out;
    for (auto& [s, node] : strings_of(n, key)) out.push_back(std::move(s));
    return out;
  }

  void unknown_key(std::string_view key, Location at, const std::vector<std::string>& known) {
    const std::string near = closest_match(key, known);
    diags_.error(at, "spec-unknown-key", "unknown key " + quoted(key) + (near.empty() ? "" : "; did you mean " + quoted(near) + "?"));
  }

  void check_pascal(std::string_view what, const std::string& value, Location at) {
    if (!is_pascal_identifier(value))
      diags_.error(at, "spec-bad-name", std::string(what) + " " + quoted(value) + " must be a PascalCase identifier" + pascal_hint(value));
  }

  // ---- the document -----------------------------------------------------------------------------

  void read_document(const Node& doc, ReconcilerSpec& spec) {
    spec.location = doc.location;
    if (!doc.is_mapping()) {
      diags_.error(doc.location, "spec-wrong-type", "the spec must be a mapping, not " + describe(doc));
      return;
    }
    if (!read_header(doc)) return;  // not a spec at all: its keys would only add noise
    for (std::size_t i = 0; i < doc.keys.size(); ++i)
      if (!contains(spec_top_level_keys(), doc.keys[i])) unknown_key(doc.keys[i], doc.key_locations[i], spec_top_level_keys());

    if (const Node* n = doc.find("resource")) {
      if (n->is_mapping()) {
        spec.duck = read_spec_duck(*n, diags_);
      } else if (auto text = string_of(*n, "resource")) {
        if (auto ref = parse_kind_ref(*text, n->location, diags_)) spec.resource = std::move(*ref);
      }
    } else {
      diags_.error(doc.location, "spec-missing-key", "missing required key 'resource' (the kind this reconciler reconciles)");
    }
    if (const Node* n = doc.find("name")) {
      if (auto name = string_of(*n, "name")) {
        check_pascal("name", *name, n->location);
        spec.name = *name;
      }
    } else if (!spec.resource.kind.empty()) {
      spec.name = pascal_case(spec.resource.kind);
    } else if (spec.duck && !spec.duck->name.empty()) {
      spec.name = pascal_case(spec.duck->name);
    }
    if (const Node* n = doc.find("namespace")) {
      if (auto ns = string_of(*n, "namespace")) {
        if (std::string why = cpp_namespace_problem(*ns); !why.empty())
          diags_.error(n->location, "spec-bad-namespace", "namespace " + quoted(*ns) + " is not a C++ namespace: " + why);
        spec.cpp_namespace = *ns;
      }
    }
    if (const Node* n = doc.find("scope")) {
      if (auto scope = string_of(*n, "scope")) {
        if (*scope == "Cluster") spec.scope = Scope::Cluster;
        else if (*scope == "Namespace") spec.scope = Scope::Namespace;
        else diags_.error(n->location, "spec-bad-scope", "'scope' must be 'Cluster' or 'Namespace', not " + quoted(*scope));
      }
    }
    if (const Node* n = doc.find("namespaces")) read_watch_namespaces(*n, spec);
    if (const Node* n = doc.find("events")) {
      if (auto api = string_of(*n, "events")) {
        if (*api == "core/v1") spec.core_v1_events = true;
        else if (*api != "events.k8s.io/v1")
          diags_.error(n->location, "spec-bad-value",
                       "'events' must be 'events.k8s.io/v1' or 'core/v1' (older clusters), not " + quoted(*api));
      }
    }
    if (const Node* n = doc.find("statusWrite")) {
      spec.status_write_location = n->location;
      if (auto mode = string_of(*n, "statusWrite")) {
        if (*mode == "apply") spec.status_apply = true;
        else if (*mode != "update")
          diags_.error(n->location, "spec-bad-value",
                       "'statusWrite' must be 'update' (an update of the status subresource) or 'apply' (server-side "
                       "apply of the status), not " +
                           quoted(*mode));
      }
    }
    if (const Node* n = doc.find("conditions")) read_conditions(*n, spec);
    if (const Node* n = doc.find("leaderElectionID")) {
      if (auto id = string_of(*n, "leaderElectionID")) {
        if (!is_dns1123_subdomain(*id))
          diags_.error(n->location, "spec-bad-value",
                       "leaderElectionID " + quoted(*id) + " must be a DNS subdomain (it names a Lease): lower-case letters, digits, '-' and '.'");
        spec.leader_election_id = *id;
      }
    }
    if (const Node* n = doc.find("reconcilers")) {
      read_steps(*n, spec);
    } else {
      diags_.error(doc.location, "spec-missing-key", "missing required key 'reconcilers' (the steps, in order)");
    }
    std::vector<Location> url_locations;  // where each rule's nonResourceURLs are, for the scope check
    if (const Node* n = doc.find("rbac")) read_rules(*n, spec, url_locations);
    if (const Node* n = doc.find("image")) {
      if (auto image = string_of(*n, "image")) {
        if (std::string why; !parse_image_reference(*image, why))
          diags_.error(n->location, "spec-bad-value",
                       "image " + quoted(*image) + " is not a container image reference: " + why);
        spec.image = *image;
      }
    }
    if (const Node* n = doc.find("replicas")) {
      const bool integer = n->is_scalar() && resolve_scalar(*n) == ScalarType::Int;
      const std::string text = integer ? to_json_text(*n) : std::string();
      if (integer && text.size() <= 4 && std::all_of(text.begin(), text.end(), ascii::is_digit) &&
          std::stoi(text) >= 1) {
        spec.replicas = std::stoi(text);
      } else {
        diags_.error(n->location, integer ? "spec-bad-value" : "spec-wrong-type",
                     "'replicas' must be a whole number from 1 to 9999 (the manager Deployment's), not " +
                         (integer ? text : describe(*n)));
      }
    }
    if (const Node* n = doc.find("deployNamespace")) {
      if (auto ns = string_of(*n, "deployNamespace")) {
        if (!is_dns1123_label(*ns))
          diags_.error(n->location, "spec-bad-value",
                       "deployNamespace " + quoted(*ns) + " must be a Kubernetes namespace name: at most 63 lower-case letters, digits and '-'");
        spec.deploy_namespace = *ns;
      }
    }
    if (const Node* n = doc.find("metrics")) read_spec_metrics(*n, spec.metrics, diags_);
    if (const Node* n = doc.find("webhooks")) {
      spec.webhooks = read_spec_webhooks(*n, diags_);
      if (spec.webhooks) spec.webhooks->location = doc.key_location("webhooks");  // what sema's messages point at
    }
    if (const Node* n = doc.find("admissionPolicies")) {
      const std::string& file = spec.file ? *spec.file : std::string();
      const std::size_t slash = file.rfind('/');
      const std::string folder = slash == std::string::npos ? "" : file.substr(0, slash);
      spec.policies = read_spec_policies(*n, PolicyFiles{sources_, folder}, diags_);
    }
    if (!spec.namespaces.empty() && spec.scope != Scope::Namespace) {
      diags_.error(spec.namespaces_location, "spec-namespaces-scope",
                   "'namespaces' needs scope: Namespace (a Role in each listed namespace); scope: Cluster watches "
                   "every namespace");
    }
    if (!spec.namespace_selector.empty() && spec.scope != Scope::Namespace) {
      diags_.error(spec.namespaces_location, "spec-namespaces-scope",
                   "'namespaces: {selector: ...}' needs scope: Namespace (a RoleBinding in each selected namespace); "
                   "scope: Cluster watches every namespace");
    }
    read_watch_keys(doc, spec);
    if (spec.scope == Scope::Namespace) {
      for (const auto& at : url_locations)
        diags_.error(at, "spec-bad-rule", "nonResourceURLs need scope: Cluster (a namespaced Role cannot grant them)");
    }
  }

  // `predicates:` (For), `watches:` and `reconcileTimeout:` (load/spec_watches.cpp).
  void read_watch_keys(const Node& doc, ReconcilerSpec& spec) {
    if (const Node* n = doc.find("predicates")) {
      spec.predicates_location = n->location;
      spec.predicates = read_spec_predicates(*n, diags_);
    }
    if (const Node* n = doc.find("watches")) spec.watches = read_spec_watches(*n, diags_);
    if (const Node* n = doc.find("reconcileTimeout")) read_spec_reconcile_timeout(*n, spec, diags_);
  }

  // apiVersion and kind; false when the document is something else than a ReconcilerSpec.
  bool read_header(const Node& doc) {
    bool ok = true;
    const Node* api = doc.find("apiVersion");
    if (!api) {
      diags_.error(doc.location, "spec-missing-key", "missing required key 'apiVersion' (apiVersion: rrgen.dev/v1alpha1)");
    } else if (auto v = string_of(*api, "apiVersion"); v && *v != kSpecApiVersion) {
      diags_.error(api->location, "spec-bad-api-version",
                   "apiVersion " + quoted(*v) + " is not supported; this rrgen reads " + std::string(kSpecApiVersion));
      ok = false;
    }
    const Node* kind = doc.find("kind");
    if (!kind) {
      diags_.error(doc.location, "spec-missing-key", "missing required key 'kind' (kind: ReconcilerSpec)");
    } else if (auto k = string_of(*kind, "kind"); k && *k != kSpecKind) {
      diags_.error(kind->location, "spec-bad-document-kind", "kind " + quoted(*k) + " is not a reconciler spec; expected kind: ReconcilerSpec");
      ok = false;
    }
    return ok;
  }

  // `namespaces: [a, b]`: namespace names (DNS-1123 labels), each once; or
  // `namespaces: {selector: {matchLabels, matchExpressions}}`: the namespaces whose labels match.
  void read_watch_namespaces(const Node& n, ReconcilerSpec& spec) {
    spec.namespaces_location = n.location;
    if (n.is_mapping()) {
      static const std::vector<std::string> keys = {"selector"};
      for (std::size_t i = 0; i < n.keys.size(); ++i) {
        if (n.keys[i] != "selector") unknown_key(n.keys[i], n.key_locations[i], keys);
      }
      const Node* selector = n.find("selector");
      if (!selector) {
        diags_.error(n.location, "spec-missing-key",
                     "'namespaces' as a mapping needs 'selector' (matchLabels, matchExpressions); or list the "
                     "namespaces");
        return;
      }
      if (auto text = read_spec_label_selector(*selector, "selector", "leave out 'namespaces' to watch every namespace",
                                               diags_)) {
        spec.namespace_selector = *text;
      }
      return;
    }
    for (auto& [name, node] : strings_of(n, "namespaces")) {
      if (!is_dns1123_label(name)) {
        diags_.error(node->location, "spec-bad-value",
                     "namespace " + quoted(name) +
                         " must be a Kubernetes namespace name: at most 63 lower-case letters, digits and '-'");
      } else if (std::find(spec.namespaces.begin(), spec.namespaces.end(), name) != spec.namespaces.end()) {
        diags_.error(node->location, "spec-duplicate-name", "namespace " + quoted(name) + " is listed twice");
      } else {
        spec.namespaces.push_back(name);
      }
    }
    if (n.is_sequence() && n.children.empty())
      diags_.error(n.location, "spec-bad-value", "'namespaces' must list at least one namespace");
    std::sort(spec.namespaces.begin(), spec.namespaces.end());
  }

  void read_conditions(const Node& n, ReconcilerSpec& spec) {
    spec.conditions_location = n.location;
    std::vector<const Node*> firsts;
    for (auto& [type, node] : strings_of(n, "conditions")) {
      if (type == "Ready") {
        diags_.error(node->location, "spec-ready-condition",
                     "'Ready' is implied: it summarises the listed conditions; list only the others");
        continue;
      }
      check_pascal("condition type", type, node->location);
      auto first = std::find(spec.conditions.begin(), spec.conditions.end(), type);
      if (first != spec.conditions.end()) {
        diags_.error(node->location, "spec-duplicate-name", "condition " + quoted(type) + " is listed twice");
        diags_.note(firsts[static_cast<std::size_t>(first - spec.conditions.begin())]->location, "first listed here");
        continue;
      }
      spec.conditions.push_back(type);
      firsts.push_back(node);
    }
  }

  void read_steps(const Node& n, ReconcilerSpec& spec) {
    if (!n.is_sequence()) {
      wrong_type(n, "reconcilers", "a sequence of steps");
      return;
    }
    if (n.children.empty()) {
      diags_.error(n.location, "spec-missing-key", "'reconcilers' must list at least one step");
      return;
    }
    for (const auto& item : n.children) {
      if (auto step = read_step(item)) spec.steps.push_back(std::move(*step));
    }
    check_step_names(spec.steps);
    check_finalizers(spec.steps);
  }

  std::optional<SpecStep> read_step(const Node& n) {
    if (!n.is_mapping()) {
      diags_.error(n.location, "spec-wrong-type", "each step of 'reconcilers' must be a mapping, not " + describe(n));
      return std::nullopt;
    }
    SpecStep step;
    step.location = n.location;
    std::vector<std::size_t> type_keys;  // indices into n.keys
    for (std::size_t i = 0; i < n.keys.size(); ++i)
      if (std::find(std::begin(kStepTypeKeys), std::end(kStepTypeKeys), n.keys[i]) != std::end(kStepTypeKeys)) type_keys.push_back(i);
    if (type_keys.empty()) {
      diags_.error(n.location, "spec-step-type", "a step needs one of 'sync', 'child' or 'childSet', with the step's name as its value");
      for (std::size_t i = 0; i < n.keys.size(); ++i)
        if (!contains(all_step_keys(), n.keys[i])) unknown_key(n.keys[i], n.key_locations[i], all_step_keys());
      return std::nullopt;
    }
    if (type_keys.size() > 1) {
      const std::size_t second = type_keys[1];
      diags_.error(n.key_locations[second], "spec-step-type",
                   "a step is exactly one of 'sync', 'child' or 'childSet'; this one has both " + quoted(n.keys[type_keys[0]]) + " and " +
                       quoted(n.keys[second]));
    }
    const std::string& type_key = n.keys[type_keys[0]];
    for (std::size_t t = 0; t < 3; ++t)
      if (type_key == kStepTypeKeys[t]) step.type = kStepTypes[t];
    const std::vector<std::string>& keys = spec_step_keys(step.type);

    const Node& name_node = n.children[type_keys[0]];
    step.name_location = name_node.location;
    if (auto name = string_of(name_node, type_key)) {
      check_pascal("step name", *name, name_node.location);
      step.name = *name;
    }
    std::optional<bool> finalize_given;
    for (std::size_t i = 0; i < n.keys.size(); ++i) {
      const std::string& key = n.keys[i];
      const Node& value = n.children[i];
      if (std::find(type_keys.begin(), type_keys.end(), i) != type_keys.end()) continue;
      if (!contains(all_step_keys(), key)) {
        unknown_key(key, n.key_locations[i], keys);
      } else if (!contains(keys, key)) {
        diags_.error(n.key_locations[i], "spec-unknown-key",
                     quoted(key) + " applies to " + step_types_with(key) + ", not to a " + type_key + " step");
      } else if (key == "kind") {
        if (auto text = string_of(value, key))
          if (auto ref = parse_kind_ref(*text, value.location, diags_)) step.child_kind = std::move(*ref);
      } else if (key == "tracks") {
        for (auto& [text, node] : strings_of(value, key))
          if (auto ref = parse_kind_ref(text, node->location, diags_)) step.tracks.push_back(std::move(*ref));
      } else if (key == "finalize") {
        finalize_given = bool_of(value, key);
        step.finalize = finalize_given.value_or(false);
      } else if (key == "withResult") {
        step.with_result = bool_of(value, key).value_or(false);
      } else if (key == "duringFinalization") {
        step.during_finalization = bool_of(value, key).value_or(false);
      } else if (key == "predicates") {
        step.predicates_location = value.location;
        step.predicates = read_spec_predicates(value, diags_);
      } else if (key == "write") {
        read_write_mode(value, step);
      } else if (key == "finalizer") {
        step.finalizer_location = value.location;
        if (auto f = string_of(value, key)) {
          check_finalizer(*f, value.location);
          step.finalizer = *f;
        }
      }
    }
    if (step.type != StepType::Sync && !n.find("kind")) {
      diags_.error(n.location, "spec-missing-key",
                   type_key + " step " + (step.name.empty() ? "" : quoted(step.name) + " ") + "needs a 'kind' (the kind of its children)");
    }
    if (step.type == StepType::Sync && !step.finalizer.empty()) {
      // WithFinalizer removes the finalizer only after the finalize hook succeeded.
      if (finalize_given && !*finalize_given)
        diags_.error(n.key_location("finalize"), "spec-step-option",
                     "a sync step with a 'finalizer' needs its finalize hook; remove 'finalize: false'");
      step.finalize = true;
    }
    return step;
  }

  // A child step's `write:`: update (create and update, the default) or apply (server-side apply).
  void read_write_mode(const Node& value, SpecStep& step) {
    step.write_location = value.location;
    auto mode = string_of(value, "write");
    if (!mode) return;
    if (*mode == "apply") {
      step.apply = true;
    } else if (*mode != "update") {
      diags_.error(value.location, "spec-bad-value",
                   "'write' must be 'update' (create and update the child) or 'apply' (server-side apply of an apply "
                   "configuration), not " +
                       quoted(*mode));
    }
  }

  void check_finalizer(const std::string& f, Location at) {
    const std::size_t slash = f.find('/');
    const bool ok = slash != std::string::npos && f.find('/', slash + 1) == std::string::npos &&
                    is_dns1123_subdomain(std::string_view(f).substr(0, slash)) && is_qualified_name_part(std::string_view(f).substr(slash + 1));
    if (ok) return;
    const std::string example = slash == std::string::npos && is_qualified_name_part(f) ? "example.com/" + f : std::string("example.com/cleanup");
    diags_.error(at, "spec-bad-finalizer",
                 "finalizer " + quoted(f) + " must be a domain-qualified name like " + quoted(example) +
                     " (a DNS subdomain, '/', and a name of up to 63 letters, digits, '-', '_' or '.')");
  }

  // Step names become C++ names and file names (snake_case), so they must differ there too.
  void check_step_names(const std::vector<SpecStep>& steps) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].name.empty()) continue;
      for (std::size_t j = 0; j < i; ++j) {
        if (steps[j].name.empty()) continue;
        if (steps[j].name == steps[i].name) {
          diags_.error(steps[i].name_location, "spec-duplicate-name", "step name " + quoted(steps[i].name) + " is used twice");
        } else if (file_stem(steps[j].name) == file_stem(steps[i].name)) {
          diags_.error(steps[i].name_location, "spec-duplicate-name",
                       "step names " + quoted(steps[j].name) + " and " + quoted(steps[i].name) + " both become " +
                           quoted(file_stem(steps[i].name)) + " in file and hook names");
        } else {
          continue;
        }
        diags_.note(steps[j].name_location, "first used here");
        break;
      }
    }
  }

  // Two steps sharing a finalizer would each remove it when only their own cleanup is done.
  void check_finalizers(const std::vector<SpecStep>& steps) {
    for (std::size_t i = 0; i < steps.size(); ++i) {
      if (steps[i].finalizer.empty()) continue;
      for (std::size_t j = 0; j < i; ++j) {
        if (steps[j].finalizer != steps[i].finalizer) continue;
        diags_.error(steps[i].finalizer_location, "spec-duplicate-finalizer",
                     "finalizer " + quoted(steps[i].finalizer) + " is already used by step " + quoted(steps[j].name) +
                         "; each step needs its own");
        diags_.note(steps[j].finalizer_location, "first used here");
        break;
      }
    }
  }

  // Kubernetes' PolicyRule validation (ValidatePolicyRule), with the scope check done by the caller.
  void read_rules(const Node& n, ReconcilerSpec& spec, std::vector<Location>& url_locations) {
    if (!n.is_sequence()) {
      wrong_type(n, "rbac", "a sequence of rules");
      return;
    }
    for (const auto& item : n.children) {
      if (!item.is_mapping()) {
        diags_.error(item.location, "spec-wrong-type", "each rule of 'rbac' must be a mapping, not " + describe(item));
        continue;
      }
      SpecRule rule;
      rule.location = item.location;
      for (std::size_t i = 0; i < item.keys.size(); ++i) {
        const std::string& key = item.keys[i];
        const Node& value = item.children[i];
        if (key == "apiGroups") rule.api_groups = plain_strings_of(value, key);
        else if (key == "resources") rule.resources = plain_strings_of(value, key);
        else if (key == "resourceNames") rule.resource_names = plain_strings_of(value, key);
        else if (key == "verbs") rule.verbs = plain_strings_of(value, key);
        else if (key == "nonResourceURLs") rule.non_resource_urls = plain_strings_of(value, key);
        else unknown_key(key, item.key_locations[i], spec_rule_keys());
      }
      if (rule.verbs.empty() && !item.find("verbs"))
        diags_.error(item.location, "spec-bad-rule", "a rule needs 'verbs'");
      else if (rule.verbs.empty())
        diags_.error(item.find("verbs")->location, "spec-bad-rule", "a rule needs at least one verb");
      if (!rule.non_resource_urls.empty()) {
        if (!rule.api_groups.empty() || !rule.resources.empty())
          diags_.error(item.key_location("nonResourceURLs"), "spec-bad-rule",
                       "a rule names either resources or nonResourceURLs, not both; split it in two");
        url_locations.push_back(item.key_location("nonResourceURLs"));
      } else {
        if (rule.api_groups.empty())
          diags_.error(item.location, "spec-bad-rule", "a resource rule needs 'apiGroups' (\"\" is the core group)");
        if (rule.resources.empty()) diags_.error(item.location, "spec-bad-rule", "a resource rule needs 'resources'");
      }
      spec.rbac.push_back(std::move(rule));
    }
  }
};

std::vector<std::string> with_watch_keys(std::vector<std::string> keys) {
  for (const std::string& key : spec_watches_top_level_keys()) keys.push_back(key);
  return keys;
}

}  // namespace

const std::vector<std::string>& spec_top_level_keys() {
  static const std::vector<std::string> keys = {"apiVersion",  "kind",    "name",       "namespace",
                                                "resource",    "scope",   "conditions", "leaderElectionID",
                                                "reconcilers", "rbac",    "image",      "deployNamespace",
                                                "webhooks",    "metrics", "replicas",   "admissionPolicies",
                                                "namespaces",  "events",  "statusWrite"};
  // Then the keys of load/spec_watches.cpp.
  static const std::vector<std::string> all = with_watch_keys(keys);
  return all;
}

const std::vector<std::string>& spec_step_keys(StepType type) {
  static const std::vector<std::string> sync = {
      "sync", "tracks", "finalize", "withResult", "duringFinalization", "finalizer", "predicates"};
  static const std::vector<std::string> child = {"child", "kind", "tracks", "finalizer", "predicates", "write"};
  static const std::vector<std::string> child_set = {"childSet", "kind", "tracks", "finalizer", "predicates"};
  switch (type) {
    case StepType::Sync: return sync;
    case StepType::Child: return child;
    case StepType::ChildSet: return child_set;
  }
  return sync;
}

const std::vector<std::string>& spec_rule_keys() {
  static const std::vector<std::string> keys = {"apiGroups", "resources", "resourceNames", "verbs", "nonResourceURLs"};
  return keys;
}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = 0;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(word, c);
    // Close means at most half of the longer word changed ("resync" -> "resource": 4 of 8).
    if (d * 2 > std::max(word.size(), c.size())) continue;
    if (best.empty() || d < best_distance) best = c, best_distance = d;
  }
  return best;
}

std::optional<KindRef> parse_kind_ref(std::string_view text, Location at, Diagnostics& diags) {
  std::vector<std::string_view> parts;
  for (std::size_t a = 0;;) {
    const std::size_t b = text.find('/', a);
    parts.push_back(text.substr(a, b == std::string_view::npos ? std::string_view::npos : b - a));
    if (b == std::string_view::npos) break;
    a = b + 1;
  }
  auto bad = [&](const std::string& why) {
    diags.error(at, "spec-bad-kind-ref",
                "invalid kind reference " + quoted(text) + ": " + why + "; write Kind, version/Kind or group/version/Kind");
    return std::nullopt;
  };
  if (parts.size() > 3) return bad("too many '/'");
  KindRef ref;
  ref.location = at;
  ref.text = std::string(text);
  ref.kind = std::string(parts.back());
  if (!is_kind_name(ref.kind)) return bad(ref.kind.empty() ? "the kind is empty" : quoted(ref.kind) + " is not a kind name");
  if (parts.size() >= 2) {
    ref.version = std::string(parts[parts.size() - 2]);
    if (!is_dns1035_label(ref.version)) return bad(quoted(ref.version) + " is not an API version");
    ref.group_given = true;  // an apiVersion without a group ("v1") is the core group
  }
  if (parts.size() == 3) {
    const std::string_view group = parts[0];
    if (!group.empty() && group != "core") {
      if (!is_dns1123_subdomain(group)) return bad(quoted(group) + " is not an API group");
      ref.group = std::string(group);
    }
  }
  return ref;
}

std::optional<ReconcilerSpec> read_spec_text(SourceSet& sources, std::string name, std::string text, Diagnostics& diags) {
  const std::string* file = sources.add(std::move(name), std::move(text));
  return SpecReader(diags, nullptr).read(file, sources.content(file));
}

std::optional<ReconcilerSpec> read_spec(SourceSet& sources, const std::string& path, Diagnostics& diags) {
  const std::string* file = sources.read(path, diags);
  if (!file) return std::nullopt;
  return SpecReader(diags, &sources).read(file, sources.content(file));
}

}  // namespace rrgen
