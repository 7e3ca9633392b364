#include "crd/crd_build.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <set>
#include <tuple>

#include "crd/crd_markers.hpp"
#include "crd/crd_schema.hpp"
#include "support/k8s_names.hpp"
#include "support/naming.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {
namespace {

// controller-gen's pattern for resource.Quantity (rrgen types reads it back as rr::Quantity).
constexpr const char* kQuantityPattern =
    R"(^(\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))(([KMGTPE]i)|[numkMGTPE]|([eE](\+|-)?(([0-9]+(\.[0-9]*)?)|(\.[0-9]+))))?$)";

char lower(char c) { return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c; }
char upper(char c) { return c >= 'a' && c <= 'z' ? static_cast<char>(c - 'a' + 'A') : c; }

std::string lower_case(std::string s) {
  for (char& c : s) c = lower(c);
  return s;
}

// "v1", "v2beta3", "v1alpha1" as Kubernetes orders versions: (stability 3/2/1 for GA/beta/alpha,
// major, minor), so v1 sorts above v2alpha1.
std::optional<std::tuple<int, int, int>> kube_version(std::string_view v) {
  if (v.size() < 2 || v.size() > 20 || v[0] != 'v') return std::nullopt;
  std::size_t i = 1;
  auto number = [&](int& into) {
    const std::size_t start = i;
    while (i < v.size() && v[i] >= '0' && v[i] <= '9') ++i;
    if (i == start || (v[start] == '0')) return false;
    into = std::stoi(std::string(v.substr(start, i - start)));
    return true;
  };
  int major = 0, minor = 0, stability = 3;
  if (!number(major)) return std::nullopt;
  if (i == v.size()) return std::make_tuple(stability, major, minor);
  if (v.substr(i, 5) == "alpha") {
    stability = 1;
    i += 5;
  } else if (v.substr(i, 4) == "beta") {
    stability = 2;
    i += 4;
  } else {
    return std::nullopt;
  }
  if (!number(minor) || i != v.size()) return std::nullopt;
  return std::make_tuple(stability, major, minor);
}

// The schema of metav1.Condition as rrgen types recognises it (rr::Condition).
SchemaNode condition_schema() {
  SchemaNode c;
  c.type = "object";
  c.required = {"type", "status", "lastTransitionTime", "reason", "message"};
  auto prop = [&](const char* name, const char* type, const char* format) {
    SchemaNode p;
    p.type = type;
    p.format = format;
    c.add_property(name, std::move(p));
  };
  prop("type", "string", "");
  prop("status", "string", "");
  for (const char* v : {"True", "False", "Unknown"}) c.properties.back().enum_values.push_back(Yaml::str(v));
  prop("observedGeneration", "integer", "int64");
  prop("lastTransitionTime", "string", "date-time");
  prop("reason", "string", "");
  prop("message", "string", "");
  return c;
}

SchemaNode string_schema() {
  SchemaNode s;
  s.type = "string";
  return s;
}

// rr::LabelSelector, rr::ObjectReference, rr::LocalObjectReference: the shapes rrgen types
// recognises as them.
SchemaNode label_selector_schema() {
  SchemaNode s;
  s.type = "object";
  SchemaNode labels;
  labels.type = "object";
  labels.additional_properties.push_back(string_schema());
  s.add_property("matchLabels", std::move(labels));
  SchemaNode requirement;
  requirement.type = "object";
  requirement.required = {"key", "operator"};
  requirement.add_property("key", string_schema());
  requirement.add_property("operator", string_schema());
  SchemaNode values;
  values.type = "array";
  values.items.push_back(string_schema());
  requirement.add_property("values", std::move(values));
  SchemaNode expressions;
  expressions.type = "array";
  expressions.items.push_back(std::move(requirement));
  s.add_property("matchExpressions", std::move(expressions));
  return s;
}

SchemaNode reference_schema(std::initializer_list<const char*> names) {
  SchemaNode s;
  s.type = "object";
  for (const char* n : names) s.add_property(n, string_schema());
  return s;
}

// Where a marker is written: which markers belong there.
enum class Place { Member, Type, Root };

bool is_kind_marker(const std::string& name) {
  return name == "kubebuilder:printcolumn" || name == "kubebuilder:resource" ||
         name == "kubebuilder:subresource:scale" || name == "kubebuilder:subresource:status" ||
         name == "kubebuilder:storageversion" || name == "kubebuilder:object:root";
}

struct VersionOf {
  std::string name;
  const CxxRecord* root = nullptr;
};

class Builder {
 public:
  Builder(const CxxModel& model, const CrdOptions& options, Diagnostics& diags)
      : model_(model), opts_(options), diags_(diags) {}

  std::vector<BuiltCrd> run() {
    std::map<std::string, std::vector<VersionOf>> kinds;
    std::vector<std::string> kind_order;
    for (const std::string& q : model_.order) {
      const CxxRecord& r = model_.records.at(q);
      if (!r.in_inputs || r.is_enum || !is_root(r)) continue;
      const std::string version = r.version.empty() ? opts_.version : r.version;
      std::vector<VersionOf>& versions = kinds[r.name];
      if (versions.empty()) kind_order.push_back(r.name);
      bool duplicate = false;
      for (const VersionOf& v : versions) duplicate = duplicate || v.name == version;
      if (duplicate) {
        error(r.at, "crd-duplicate-version",
              "a second " + r.name + " for version " + version +
                  " (put each version's struct in a namespace named after it, e.g. v1, v1beta1)");
        continue;
      }
      versions.push_back({version, &r});
    }
    std::vector<BuiltCrd> out;
    if (kinds.empty()) {
      error({}, "crd-no-kind",
            "no kind found: a kind is a struct marked // +kubebuilder:object:root=true, or one with "
            "`rr::ObjectMeta metadata` and a `spec` or `status` member");
      return out;
    }
    for (const std::string& kind : kind_order) {
      if (std::optional<BuiltCrd> crd = crd_of(kind, kinds[kind])) out.push_back(std::move(*crd));
    }
    return out;
  }

 private:
  // Each diagnostic once: a struct used by two kinds or versions is checked for each.
  void error(Location at, std::string check, std::string message) {
    if (reported_.insert(format_location(at) + check + message).second)
      diags_.error(at, std::move(check), std::move(message));
  }
  void warning(Location at, std::string check, std::string message) {
    if (reported_.insert(format_location(at) + check + message).second)
      diags_.warning(at, std::move(check), std::move(message));
  }

  const CommentFacts& facts_of(const CxxRecord& r) {
    auto it = facts_.find(r.qualified);
    if (it == facts_.end()) it = facts_.emplace(r.qualified, read_comment(r.comment, diags_)).first;
    return it->second;
  }

  bool is_root(const CxxRecord& r) {
    for (const Marker& m : facts_of(r).markers) {
      if (m.name == "kubebuilder:object:root") {
        if (m.value != "true") return false;
        // A list type (WebAppList, controller-gen's other root) is not a kind of its own.
        bool items = false;
        for (const CxxField& f : r.fields) items = items || f.name == "items";
        return !(items && r.name.size() > 4 && r.name.compare(r.name.size() - 4, 4, "List") == 0);
      }
    }
    bool metadata = false, body = false;
    for (const CxxField& f : r.fields) {
      metadata = metadata || (f.name == "metadata" && f.type.kind == CxxKind::ObjectMeta);
      body = body || f.name == "spec" || f.name == "status";
    }
    return metadata && body;
  }

  void misplaced(const Marker& m, const std::string& where) {
    error(m.at, "crd-marker-misplaced", "+" + m.name + " " + where);
  }

  void wrong_type(const Marker& m, const SchemaNode& s, const char* applies_to) {
    error(m.at, "crd-marker-type",
          "+" + m.name + " applies to " + applies_to + "; this is " +
              (s.type.empty() ? std::string("an int-or-string or free-form value") : "of type " + s.type));
  }

  std::optional<std::string> string_value(const Marker& m, const std::string& text) {
    std::string why;
    std::optional<std::string> s = marker_string(text, why);
    if (!s) error(m.at, "crd-marker-invalid", "+" + m.name + ": " + why);
    return s;
  }

  // A value of `s`'s type from marker text: JSON, or for strings the text itself.
  std::optional<Yaml> value_for(const Marker& m, const SchemaNode& s, const std::string& text) {
    std::string why;
    if (std::optional<Yaml> v = json_value(text, why)) return v;
    if (s.type == "string" && !text.empty() && text.front() != '"' && text.front() != '{' && text.front() != '[') {
      return Yaml::str(text);
    }
    error(m.at, "crd-marker-invalid", "+" + m.name + ": '" + text + "' is not a JSON value (" + why + ")");
    return std::nullopt;
  }

  // Applies the schema markers of `markers` to `s`; the kind markers are the root's (read by
  // crd_of), member-presence markers are read by the caller.
  void apply(SchemaNode& s, const std::vector<Marker>& markers, Place place) {
    const bool numeric = s.type == "integer" || s.type == "number";
    const bool stringy = s.type == "string" || s.int_or_string;
    for (const Marker& m : markers) {
      const std::string& n = m.name;
      if (is_kind_marker(n)) {
        if (place != Place::Root) misplaced(m, "belongs on a kind's root struct");
        continue;
      }
      if (n == "json:name" || n == "optional" || n == "required" || n == "kubebuilder:validation:Required" ||
          n == "kubebuilder:validation:Optional") {
        if (place != Place::Member) misplaced(m, "belongs on a member");
        continue;
      }
      if (n == "kubebuilder:validation:Minimum" || n == "kubebuilder:validation:Maximum" ||
          n == "kubebuilder:validation:MultipleOf") {
        if (!numeric) {
          wrong_type(m, s, "integers and numbers");
          continue;
        }
        std::optional<std::string> v = json_number(m.value);
        if (!v) {
          error(m.at, "crd-marker-invalid", "+" + n + ": '" + m.value + "' is not a number");
          continue;
        }
        if (n == "kubebuilder:validation:Minimum") {
          s.minimum = *v;
        } else if (n == "kubebuilder:validation:Maximum") {
          s.maximum = *v;
        } else {
          s.multiple_of = *v;
        }
      } else if (n == "kubebuilder:validation:ExclusiveMinimum" || n == "kubebuilder:validation:ExclusiveMaximum") {
        if (!numeric) {
          wrong_type(m, s, "integers and numbers");
          continue;
        }
        if (m.value != "true" && m.value != "false") {
          error(m.at, "crd-marker-invalid", "+" + n + " takes true or false (it makes Minimum/Maximum exclusive)");
          continue;
        }
        (n.find("Minimum") != std::string::npos ? s.exclusive_minimum : s.exclusive_maximum) = m.value == "true";
      } else if (n == "kubebuilder:validation:MinLength" || n == "kubebuilder:validation:MaxLength") {
        if (!stringy) {
          wrong_type(m, s, "strings");
          continue;
        }
        if (std::optional<long long> c = count(m))
          (n.find("Min") != std::string::npos ? s.min_length : s.max_length) = c;
      } else if (n == "kubebuilder:validation:MinItems" || n == "kubebuilder:validation:MaxItems") {
        if (s.type != "array") {
          wrong_type(m, s, "arrays");
          continue;
        }
        if (std::optional<long long> c = count(m)) (n.find("Min") != std::string::npos ? s.min_items : s.max_items) = c;
      } else if (n == "kubebuilder:validation:MinProperties" || n == "kubebuilder:validation:MaxProperties") {
        if (s.type != "object") {
          wrong_type(m, s, "objects and maps");
          continue;
        }
        if (std::optional<long long> c = count(m))
          (n.find("Min") != std::string::npos ? s.min_properties : s.max_properties) = c;
      } else if (n == "kubebuilder:validation:UniqueItems") {
        if (s.type != "array") {
          wrong_type(m, s, "arrays");
          continue;
        }
        error(m.at, "crd-marker-invalid", "+" + n + ": Kubernetes refuses uniqueItems in a CRD; use +listType=set");
      } else if (n == "kubebuilder:validation:Pattern" || n == "kubebuilder:validation:Format") {
        if (!stringy) {
          wrong_type(m, s, "strings");
          continue;
        }
        if (std::optional<std::string> v = string_value(m, m.value)) (n.back() == 'n' ? s.pattern : s.format) = *v;
      } else if (n == "kubebuilder:validation:Enum") {
        std::vector<Yaml> values;
        for (const std::string& item : marker_list(m.value)) {
          if (s.type == "string") {
            values.push_back(Yaml::str(item));
          } else if (numeric && json_number(item)) {
            values.push_back(Yaml::raw(*json_number(item)));
          } else if (s.type == "boolean" && (item == "true" || item == "false")) {
            values.push_back(Yaml::raw(item));
          } else {
            error(m.at, "crd-marker-invalid",
                  "+" + n + ": '" + item + "' is not a value of type " + (s.type.empty() ? "any" : s.type));
            values.clear();
            break;
          }
        }
        if (!values.empty()) s.enum_values = std::move(values);
      } else if (n == "kubebuilder:default") {
        if (std::optional<Yaml> v = value_for(m, s, m.value)) s.default_value = std::move(*v);
      } else if (n == "kubebuilder:pruning:PreserveUnknownFields") {
        s.preserve_unknown = true;
      } else if (n == "nullable") {
        s.nullable = true;
      } else if (n == "kubebuilder:validation:XValidation") {
        validation(s, m);
      } else if (n == "listType") {
        if (s.type != "array") {
          wrong_type(m, s, "arrays");
          continue;
        }
        if (m.value != "atomic" && m.value != "set" && m.value != "map") {
          error(m.at, "crd-marker-invalid", "+listType is atomic, set or map, not '" + m.value + "'");
          continue;
        }
        s.list_type = m.value;
      } else if (n == "listMapKey") {
        if (s.type != "array") {
          wrong_type(m, s, "arrays");
          continue;
        }
        if (std::optional<std::string> v = string_value(m, m.value)) s.list_map_keys.push_back(*v);
      } else if (n == "mapType") {
        if (s.type != "object") {
          wrong_type(m, s, "objects and maps");
          continue;
        }
        if (m.value != "atomic" && m.value != "granular") {
          error(m.at, "crd-marker-invalid", "+mapType is atomic or granular, not '" + m.value + "'");
          continue;
        }
        s.map_type = m.value;
      }
    }
    check_list_map(s, markers);
  }

  std::optional<long long> count(const Marker& m) {
    std::optional<long long> c = marker_count(m.value);
    if (!c) error(m.at, "crd-marker-invalid", "+" + m.name + ": '" + m.value + "' is not a count");
    return c;
  }

  void validation(SchemaNode& s, const Marker& m) {
    std::vector<std::pair<std::string, std::string>> rule;
    bool has_rule = false;
    for (const char* key : {"rule", "message", "messageExpression", "reason", "fieldPath"}) {
      bool found = false;
      const std::string text = m.arg(key, &found);
      if (!found) continue;
      std::optional<std::string> v = string_value(m, text);
      if (!v) return;
      rule.emplace_back(key, *v);
      has_rule = has_rule || std::string_view(key) == "rule";
    }
    for (const auto& [k, v] : m.args) {
      if (k != "rule" && k != "message" && k != "messageExpression" && k != "reason" && k != "fieldPath") {
        error(m.at, "crd-marker-invalid",
              "+" + m.name + ": unknown argument '" + k + "' (rule, message, messageExpression, reason, fieldPath)");
        return;
      }
    }
    if (!has_rule) {
      error(m.at, "crd-marker-invalid", "+" + m.name + " needs rule=\"<CEL expression>\"");
      return;
    }
    s.validations.push_back(std::move(rule));
  }

  // listType=map needs its keys, each a required (or defaulted) property of the items.
  void check_list_map(const SchemaNode& s, const std::vector<Marker>& markers) {
    const Marker* at = nullptr;
    for (const Marker& m : markers) {
      if (m.name == "listType" || m.name == "listMapKey") at = at ? at : &m;
    }
    if (!at) return;
    if (s.list_type != "map") {
      if (!s.list_map_keys.empty()) error(at->at, "crd-list-map-key", "+listMapKey needs +listType=map");
      return;
    }
    if (s.list_map_keys.empty()) {
      error(at->at, "crd-list-map-key", "+listType=map needs +listMapKey=<member> (one or more)");
      return;
    }
    const SchemaNode* item = s.items.empty() ? nullptr : &s.items.front();
    for (const std::string& key : s.list_map_keys) {
      const SchemaNode* p = item ? item->property(key) : nullptr;
      const bool required = item &&
                            std::find(item->required.begin(), item->required.end(), key) != item->required.end();
      if (!p) {
        error(at->at, "crd-list-map-key", "+listMapKey=" + key + ": the items have no member '" + key + "'");
      } else if (!required && !p->default_value) {
        error(at->at, "crd-list-map-key",
              "+listMapKey=" + key + ": the key must be a required member of the items (or have a default)");
      }
    }
  }

  // The schema of a C++ type; nullopt after an error at `at`.
  std::optional<SchemaNode> schema_of(const CxxType& t, Location at, std::vector<std::string>& stack) {
    SchemaNode s;
    auto typed = [&s](const char* type, const char* format = "") {
      s.type = type;
      s.format = format;
      return s;
    };
    switch (t.kind) {
      case CxxKind::Bool: return typed("boolean");
      case CxxKind::Int32: return typed("integer", "int32");
      case CxxKind::Int64: return typed("integer", "int64");
      case CxxKind::Double: return typed("number");
      case CxxKind::String: return typed("string");
      case CxxKind::Time: return typed("string", "date-time");
      case CxxKind::Bytes: return typed("string", "byte");
      case CxxKind::Quantity:
        s.any_of_int_or_string = true;
        s.pattern = kQuantityPattern;
        s.int_or_string = true;
        return s;
      case CxxKind::IntOrString:
        s.any_of_int_or_string = true;
        s.int_or_string = true;
        return s;
      case CxxKind::Json: s.preserve_unknown = true; return s;
      case CxxKind::ObjectMeta: return typed("object");
      case CxxKind::Condition: return condition_schema();
      case CxxKind::LabelSelector: return label_selector_schema();
      case CxxKind::ObjectReference:
        return reference_schema({"apiVersion", "fieldPath", "kind", "name", "namespace", "resourceVersion", "uid"});
      case CxxKind::LocalObjectReference: return reference_schema({"name"});
      case CxxKind::Vector:
      case CxxKind::Map: {
        const CxxType& element = t.args.front();
        if (element.kind == CxxKind::Optional || element.kind == CxxKind::Nullable) {
          error(at, "crd-unsupported-type",
                "'" + t.spelling + "': an optional element has no JSON form; write the element type itself");
          return std::nullopt;
        }
        std::optional<SchemaNode> e = schema_of(element, at, stack);
        if (!e) return std::nullopt;
        s.type = t.kind == CxxKind::Vector ? "array" : "object";
        (t.kind == CxxKind::Vector ? s.items : s.additional_properties).push_back(std::move(*e));
        return s;
      }
      case CxxKind::Record: return record_schema(model_.records.at(t.record), at, stack);
      case CxxKind::Enum: {
        const CxxRecord& e = model_.records.at(t.record);
        s.type = "string";
        for (const std::string& v : e.enumerators) s.enum_values.push_back(Yaml::str(v));
        const CommentFacts& facts = facts_of(e);
        s.description = facts.description;
        apply(s, facts.markers, Place::Type);
        return s;
      }
      case CxxKind::Optional:
      case CxxKind::Nullable:
        error(at, "crd-unsupported-type", "'" + t.spelling + "': an optional of an optional");
        return std::nullopt;
      case CxxKind::Skipped:
        error(at, "crd-unsupported-type", "'" + t.spelling + "' is a generated type's bookkeeping, not data");
        return std::nullopt;
      case CxxKind::Unsupported: error(at, "crd-unsupported-type", t.why); return std::nullopt;
    }
    return std::nullopt;
  }

  std::optional<SchemaNode> record_schema(const CxxRecord& r, Location at, std::vector<std::string>& stack) {
    if (std::find(stack.begin(), stack.end(), r.qualified) != stack.end()) {
      error(at, "crd-recursive-type",
            "'" + r.qualified +
                "' contains itself: a CRD schema cannot refer back to a type (structural schemas "
                "have no $ref)");
      return std::nullopt;
    }
    stack.push_back(r.qualified);
    std::optional<SchemaNode> s = object_of(r, false, stack);
    stack.pop_back();
    return s;
  }

  // A struct's object schema; the root's has apiVersion, kind and metadata first.
  std::optional<SchemaNode> object_of(const CxxRecord& r, bool root, std::vector<std::string>& stack) {
    SchemaNode s;
    s.type = "object";
    const CommentFacts& type_facts = facts_of(r);
    s.description = type_facts.description;
    if (root) {
      s.add_property("apiVersion", string_schema());
      s.add_property("kind", string_schema());
      SchemaNode meta;
      meta.type = "object";
      s.add_property("metadata", std::move(meta));
    }
    bool ok = true;
    std::set<std::string> names;
    for (const CxxField& f : r.fields) {
      if (f.type.kind == CxxKind::Skipped) continue;
      // Once per member: a struct used by two kinds or versions reports its markers' errors once.
      auto cached = member_facts_.find(r.qualified + "::" + f.name);
      if (cached == member_facts_.end())
        cached = member_facts_.emplace(r.qualified + "::" + f.name, read_comment(f.comment, diags_)).first;
      const CommentFacts& facts = cached->second;
      std::string json;
      bool explicit_name = false;
      bool required = true;
      for (const Marker& m : facts.markers) {
        if (m.name == "json:name") {
          std::optional<std::string> v = string_value(m, m.value);
          if (!v) continue;
          if (v->empty()) {
            error(m.at, "crd-marker-invalid", "+json:name: a JSON name cannot be empty");
            continue;
          }
          json = *v;
          explicit_name = true;
        } else if (m.name == "kubebuilder:validation:Optional" || m.name == "optional") {
          required = false;
        }
      }
      if (!explicit_name) json = json_name_of_member(f.name);
      if (!explicit_name && field_name(json) != f.name) {
        warning(f.at, "crd-json-name",
                "member '" + f.name + "' becomes JSON '" + json + "', which rrgen types names '" + field_name(json) +
                    "': rename it, or give its JSON name with // +json:name=...");
      }
      if (root && (json == "apiVersion" || json == "kind" || json == "metadata")) {
        const CxxKind want = json == "metadata" ? CxxKind::ObjectMeta : CxxKind::String;
        if (f.type.kind != want) {
          error(f.at, "crd-root-member",
                "a kind's '" + json + "' is " + (json == "metadata" ? "rr::ObjectMeta" : "a std::string") + ", not '" +
                    f.type.spelling + "'");
          ok = false;
        }
        continue;
      }
      if (!names.insert(json).second) {
        error(f.at, "crd-duplicate-json-name", "a second member with the JSON name '" + json + "'");
        ok = false;
        continue;
      }
      CxxType t = f.type;
      bool nullable = false;
      if (t.kind == CxxKind::Optional || t.kind == CxxKind::Nullable) {
        nullable = t.kind == CxxKind::Nullable;
        required = false;
        t = CxxType(t.args.front());
      }
      for (const Marker& m : facts.markers) {
        if (m.name == "kubebuilder:validation:Required" || m.name == "required") required = true;
      }
      std::optional<SchemaNode> p = schema_of(t, f.at, stack);
      if (!p) {
        ok = false;
        continue;
      }
      if (!facts.description.empty()) p->description = facts.description;
      p->nullable = p->nullable || nullable;
      apply(*p, facts.markers, Place::Member);
      if (required) s.required.push_back(json);
      s.add_property(json, std::move(*p));
    }
    apply(s, type_facts.markers, root ? Place::Root : Place::Type);
    if (!ok) return std::nullopt;
    return s;
  }

  std::optional<BuiltCrd> crd_of(const std::string& kind, std::vector<VersionOf>& versions) {
    std::string plural = plural_of_kind(kind), singular = lower_case(kind);
    std::string scope = opts_.scope;
    std::vector<std::string> short_names, categories;
    struct VersionDoc {
      std::string name;
      bool storage = false, status = false;
      Yaml scale, columns, schema;
    };
    std::vector<VersionDoc> docs;
    const CxxRecord* storage_marked = nullptr;
    bool ok = true;
    for (const VersionOf& v : versions) {
      const CommentFacts& facts = facts_of(*v.root);
      bool status = false, storage = false;
      Yaml scale = Yaml::map(), columns = Yaml::seq();
      for (const Marker& m : facts.markers) {
        if (m.name == "kubebuilder:subresource:status") {
          status = true;
        } else if (m.name == "kubebuilder:storageversion") {
          storage = true;
        } else if (m.name == "kubebuilder:resource") {
          ok = resource(m, scope, plural, singular, short_names, categories) && ok;
        } else if (m.name == "kubebuilder:subresource:scale") {
          ok = scale_of(m, scale) && ok;
        } else if (m.name == "kubebuilder:printcolumn") {
          ok = column(m, columns) && ok;
        }
      }
      if (storage) {
        if (storage_marked) {
          error(v.root->at, "crd-storage-version",
                kind + " has two versions marked +kubebuilder:storageversion (" + storage_marked->qualified + " and " +
                    v.root->qualified + ")");
          ok = false;
        }
        storage_marked = v.root;
      }
      std::vector<std::string> stack{v.root->qualified};
      std::optional<SchemaNode> schema = object_of(*v.root, true, stack);
      if (!schema) {
        ok = false;
        continue;
      }
      docs.push_back({v.name, storage || versions.size() == 1, status, std::move(scale), std::move(columns),
                      schema_yaml(*schema)});
    }
    if (!ok) return std::nullopt;
    if (versions.size() > 1 && !storage_marked) {
      error(versions.front().root->at, "crd-storage-version",
            kind + " has " + std::to_string(versions.size()) +
                " versions: mark the one stored with // +kubebuilder:storageversion");
      return std::nullopt;
    }
    // As Kubernetes orders versions: GA before beta before alpha, higher first.
    std::stable_sort(docs.begin(), docs.end(), [](const VersionDoc& a, const VersionDoc& b) {
      return kube_version(a.name) > kube_version(b.name);
    });
    Yaml version_list = Yaml::seq();
    for (VersionDoc& d : docs) {
      Yaml body = Yaml::map();
      body.set("name", d.name).set("served", Yaml::boolean(true)).set("storage", Yaml::boolean(d.storage));
      if (d.status || !d.scale.empty()) {
        Yaml sub = Yaml::map();
        if (d.status) sub.set("status", Yaml::map());
        if (!d.scale.empty()) sub.set("scale", std::move(d.scale));
        body.set("subresources", std::move(sub));
      }
      if (!d.columns.empty()) body.set("additionalPrinterColumns", std::move(d.columns));
      body.set("schema", Yaml::map().set("openAPIV3Schema", std::move(d.schema)));
      version_list.push(std::move(body));
    }
    Yaml names = Yaml::map();
    names.set("kind", kind).set("listKind", kind + "List").set("plural", plural).set("singular", singular);
    if (!short_names.empty()) names.set("shortNames", Yaml::strings(short_names));
    if (!categories.empty()) names.set("categories", Yaml::strings(categories));
    Yaml crd = Yaml::map();
    crd.set("apiVersion", "apiextensions.k8s.io/v1").set("kind", "CustomResourceDefinition");
    crd.set("metadata", Yaml::map().set("name", plural + "." + opts_.group));
    Yaml spec = Yaml::map();
    spec.set("group", opts_.group).set("names", std::move(names)).set("scope", scope);
    spec.set("versions", std::move(version_list));
    crd.set("spec", std::move(spec));
    return BuiltCrd{opts_.group + "_" + plural + ".yaml", kind, std::move(crd)};
  }

  bool resource(const Marker& m, std::string& scope, std::string& plural, std::string& singular,
                std::vector<std::string>& short_names, std::vector<std::string>& categories) {
    for (const auto& [k, raw] : m.args) {
      std::optional<std::string> v = string_value(m, raw);
      if (!v) return false;
      if (k == "scope") {
        if (*v != "Namespaced" && *v != "Cluster") {
          error(m.at, "crd-marker-invalid", "+kubebuilder:resource:scope is Namespaced or Cluster, not '" + *v + "'");
          return false;
        }
        scope = *v;
      } else if (k == "shortName") {
        short_names = marker_list(*v);
      } else if (k == "categories") {
        categories = marker_list(*v);
      } else if (k == "path") {
        plural = *v;
      } else if (k == "singular") {
        singular = *v;
      } else {
        error(m.at, "crd-marker-invalid",
              "+kubebuilder:resource: unknown argument '" + k + "' (scope, shortName, categories, path, singular)");
        return false;
      }
    }
    for (const std::string* name : {&plural, &singular}) {
      if (!is_dns1123_label(*name)) {
        error(m.at, "crd-marker-invalid", "+kubebuilder:resource: '" + *name + "' is not a lower-case resource name");
        return false;
      }
    }
    return true;
  }

  bool scale_of(const Marker& m, Yaml& scale) {
    std::map<std::string, std::string> values;
    for (const auto& [k, raw] : m.args) {
      if (k != "specpath" && k != "statuspath" && k != "selectorpath") {
        error(m.at, "crd-marker-invalid",
              "+kubebuilder:subresource:scale: unknown argument '" + k + "' (specpath, statuspath, selectorpath)");
        return false;
      }
      std::optional<std::string> v = string_value(m, raw);
      if (!v) return false;
      values[k] = *v;
    }
    if (!values.count("specpath") || !values.count("statuspath")) {
      error(m.at, "crd-marker-invalid", "+kubebuilder:subresource:scale needs specpath= and statuspath=");
      return false;
    }
    scale.set("specReplicasPath", values["specpath"]).set("statusReplicasPath", values["statuspath"]);
    if (values.count("selectorpath")) scale.set("labelSelectorPath", values["selectorpath"]);
    return true;
  }

  bool column(const Marker& m, Yaml& columns) {
    std::map<std::string, std::string> values;
    for (const auto& [k, raw] : m.args) {
      if (k != "name" && k != "type" && k != "JSONPath" && k != "description" && k != "priority" && k != "format") {
        error(m.at, "crd-marker-invalid",
              "+kubebuilder:printcolumn: unknown argument '" + k +
                  "' (name, type, JSONPath, description, priority, format)");
        return false;
      }
      std::optional<std::string> v = string_value(m, raw);
      if (!v) return false;
      values[k] = *v;
    }
    if (values["name"].empty() || values["type"].empty() || values["JSONPath"].empty()) {
      error(m.at, "crd-marker-invalid", "+kubebuilder:printcolumn needs name=, type= and JSONPath=");
      return false;
    }
    static const std::set<std::string> types{"integer", "number", "string", "boolean", "date"};
    if (!types.count(values["type"])) {
      error(m.at, "crd-marker-invalid",
            "+kubebuilder:printcolumn: type is integer, number, string, boolean or date, not '" + values["type"] + "'");
      return false;
    }
    if (values["JSONPath"].front() != '.') {
      error(m.at, "crd-marker-invalid", "+kubebuilder:printcolumn: JSONPath starts with '.' (.status.url)");
      return false;
    }
    Yaml c = Yaml::map();
    c.set("name", values["name"]).set("type", values["type"]);
    if (!values["format"].empty()) c.set("format", values["format"]);
    if (!values["description"].empty()) c.set("description", values["description"]);
    if (!values["priority"].empty()) {
      std::optional<long long> p = marker_count(values["priority"]);
      if (!p) {
        error(m.at, "crd-marker-invalid", "+kubebuilder:printcolumn: priority is a number (0 or more)");
        return false;
      }
      c.set("priority", Yaml::integer(*p));
    }
    c.set("jsonPath", values["JSONPath"]);
    columns.push(std::move(c));
    return true;
  }

  const CxxModel& model_;
  const CrdOptions& opts_;
  Diagnostics& diags_;
  std::map<std::string, CommentFacts> facts_;         // a struct's or enum's, by qualified name
  std::map<std::string, CommentFacts> member_facts_;  // a member's, by "<struct>::<member>"
  std::set<std::string> reported_;
};

}  // namespace

std::string json_name_of_member(const std::string& member) {
  std::string m = member;
  if (m.size() > 1 && m.back() == '_' && is_reserved_identifier(std::string_view(m).substr(0, m.size() - 1)))
    m.pop_back();
  std::string out;
  bool up = false;
  for (char c : m) {
    if (c == '_') {
      up = !out.empty();
      continue;
    }
    out += up ? upper(c) : c;
    up = false;
  }
  return out.empty() ? member : out;
}

std::string plural_of_kind(const std::string& kind) {
  const std::string k = lower_case(kind);
  auto ends = [&](std::string_view tail) {
    return k.size() >= tail.size() && k.compare(k.size() - tail.size(), tail.size(), tail) == 0;
  };
  if (ends("s") || ends("x") || ends("z") || ends("ch") || ends("sh")) return k + "es";
  if (ends("y") && k.size() > 1 && std::string_view("aeiou").find(k[k.size() - 2]) == std::string_view::npos)
    return k.substr(0, k.size() - 1) + "ies";
  return k + "s";
}

std::vector<BuiltCrd> build_crds(const CxxModel& model, const CrdOptions& options, Diagnostics& diags) {
  return Builder(model, options, diags).run();
}

OutputSet crd_files(const std::vector<BuiltCrd>& crds, const std::string& single_file) {
  constexpr std::string_view comment = "Written by rrgen crd from C++ types (docs/crd-from-types.md).";
  OutputSet out;
  if (!single_file.empty()) {
    std::vector<Yaml> documents;
    for (const BuiltCrd& c : crds) documents.push_back(c.document);
    out.files.push_back({single_file, manifest_file(documents, comment)});
    return out;
  }
  for (const BuiltCrd& c : crds) out.files.push_back({c.file, manifest_file({c.document}, comment)});
  return out;
}

}  // namespace rrgen
