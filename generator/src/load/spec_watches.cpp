#include "load/spec_watches.hpp"

#include <algorithm>
#include <limits>
#include <utility>

#include "load/spec_reader.hpp"
#include "support/ascii.hpp"
#include "support/k8s_names.hpp"
#include "support/naming.hpp"

namespace rrgen {
namespace {

std::string w_quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

bool w_is_string(const Node& n) { return n.is_scalar() && resolve_scalar(n) == ScalarType::String; }

void w_unknown_key(Diagnostics& diags, std::string_view key, Location at, const std::vector<std::string>& known) {
  const std::string near = closest_match(key, known);
  diags.error(at, "spec-unknown-key",
              "unknown key " + w_quoted(key) + (near.empty() ? "" : "; did you mean " + w_quoted(near) + "?"));
}

bool w_is_pascal(std::string_view s) {
  return !s.empty() && s.front() >= 'A' && s.front() <= 'Z' && std::all_of(s.begin(), s.end(), ascii::is_alnum);
}

// A label key: an optional DNS subdomain prefix and '/', then a qualified name part.
bool w_is_label_key(std::string_view s) {
  const std::size_t slash = s.find('/');
  if (slash == std::string_view::npos) return is_qualified_name_part(s);
  return is_dns1123_subdomain(s.substr(0, slash)) && is_qualified_name_part(s.substr(slash + 1));
}

// A hook name, PascalCase (it becomes <snake_case>_predicate or <snake_case>_map in the hooks).
std::optional<std::string> w_hook_name(const Node& n, std::string_view key, Diagnostics& diags) {
  if (!w_is_string(n)) {
    diags.error(n.location, "spec-wrong-type", w_quoted(key) + " must be a hook name, not " + describe(n));
    return std::nullopt;
  }
  if (!w_is_pascal(n.text)) {
    const std::string fixed = pascal_case(n.text);
    diags.error(n.location, "spec-bad-name",
                "hook name " + w_quoted(n.text) + " must be a PascalCase identifier" +
                    (w_is_pascal(fixed) ? " like " + w_quoted(fixed) : std::string()));
    return std::nullopt;
  }
  return n.text;
}

// matchExpressions: [{key, operator, values}] as the string grammar's requirements.
bool w_read_expressions(const Node& n, std::vector<std::string>& terms, Diagnostics& diags) {
  if (!n.is_sequence()) {
    diags.error(n.location, "spec-wrong-type", "'matchExpressions' must be a sequence, not " + describe(n));
    return false;
  }
  bool ok = true;
  for (const Node& item : n.children) {
    if (!item.is_mapping()) {
      diags.error(item.location, "spec-wrong-type",
                  "each of 'matchExpressions' must be a mapping, not " + describe(item));
      ok = false;
      continue;
    }
    for (std::size_t i = 0; i < item.keys.size(); ++i)
      if (std::find(spec_expression_keys().begin(), spec_expression_keys().end(), item.keys[i]) ==
          spec_expression_keys().end()) {
        w_unknown_key(diags, item.keys[i], item.key_locations[i], spec_expression_keys());
        ok = false;
      }
    const Node* key = item.find("key");
    const Node* op = item.find("operator");
    if (!key || !op) {
      diags.error(item.location, "spec-missing-key", "a match expression needs 'key' and 'operator'");
      ok = false;
      continue;
    }
    if (!w_is_string(*key) || !w_is_label_key(key->text)) {
      diags.error(key->location, "spec-bad-predicate",
                  "label key " + w_quoted(key->text) +
                      " must be a qualified name (an optional DNS prefix and '/', then "
                      "up to 63 letters, digits, '-', '_' or '.')");
      ok = false;
      continue;
    }
    std::vector<std::string> values;
    if (const Node* v = item.find("values")) {
      if (!v->is_sequence()) {
        diags.error(v->location, "spec-wrong-type", "'values' must be a sequence of strings, not " + describe(*v));
        ok = false;
        continue;
      }
      for (const Node& value : v->children) {
        if (!value.is_scalar() || !is_label_value(value.text)) {
          diags.error(value.location, "spec-bad-predicate",
                      "label value " + w_quoted(value.text) + " is not a label value");
          ok = false;
          continue;
        }
        values.push_back(value.text);
      }
    }
    const std::string& o = op->text;
    if (o == "In" || o == "NotIn") {
      if (values.empty()) {
        diags.error(op->location, "spec-bad-predicate", "operator " + o + " needs at least one value");
        ok = false;
        continue;
      }
      std::string list;
      for (const auto& value : values) list += (list.empty() ? "" : ",") + value;
      terms.push_back(key->text + (o == "In" ? " in (" : " notin (") + list + ")");
    } else if (o == "Exists" || o == "DoesNotExist") {
      if (!values.empty()) {
        diags.error(item.find("values")->location, "spec-bad-predicate", "operator " + o + " takes no values");
        ok = false;
        continue;
      }
      terms.push_back((o == "Exists" ? "" : "!") + key->text);
    } else {
      diags.error(op->location, "spec-bad-predicate",
                  "operator " + w_quoted(o) + " is not one of In, NotIn, Exists and DoesNotExist");
      ok = false;
    }
  }
  return ok;
}

// `{labelSelector: {matchLabels, matchExpressions}}` as the string grammar.
std::optional<std::string> w_read_selector(const Node& n, Diagnostics& diags,
                                           std::string_view key_name = "labelSelector",
                                           std::string_view if_empty = "remove the predicate") {
  if (!n.is_mapping()) {
    diags.error(n.location, "spec-wrong-type",
                w_quoted(key_name) + " must be a mapping of matchLabels and matchExpressions, not " + describe(n));
    return std::nullopt;
  }
  bool ok = true;
  std::vector<std::string> terms;
  for (std::size_t i = 0; i < n.keys.size(); ++i) {
    const std::string& key = n.keys[i];
    const Node& value = n.children[i];
    if (key == "matchLabels") {
      if (!value.is_mapping()) {
        diags.error(value.location, "spec-wrong-type",
                    "'matchLabels' must be a mapping of labels, not " + describe(value));
        ok = false;
        continue;
      }
      for (std::size_t j = 0; j < value.keys.size(); ++j) {
        const Node& v = value.children[j];
        if (!w_is_label_key(value.keys[j])) {
          diags.error(value.key_locations[j], "spec-bad-predicate",
                      "label key " + w_quoted(value.keys[j]) + " is not a qualified name");
          ok = false;
        } else if (!v.is_scalar() || !is_label_value(v.text)) {
          diags.error(v.location, "spec-bad-predicate", "label value " + w_quoted(v.text) + " is not a label value");
          ok = false;
        } else {
          terms.push_back(value.keys[j] + "=" + v.text);
        }
      }
    } else if (key == "matchExpressions") {
      ok = w_read_expressions(value, terms, diags) && ok;
    } else {
      w_unknown_key(diags, key, n.key_locations[i], spec_selector_keys());
      ok = false;
    }
  }
  if (!ok) return std::nullopt;
  if (terms.empty()) {
    diags.error(n.location, "spec-bad-predicate",
                "an empty " + std::string(key_name) + " matches every object; " + std::string(if_empty));
    return std::nullopt;
  }
  std::string out;
  for (const auto& t : terms) out += (out.empty() ? "" : ",") + t;
  return out;
}

std::optional<SpecPredicate> w_read_predicate(const Node& n, Diagnostics& diags) {
  SpecPredicate p;
  p.location = n.location;
  if (w_is_string(n)) {
    const auto& names = spec_predicate_names();
    const auto at = std::find(names.begin(), names.end(), n.text);
    if (at == names.end()) {
      const std::string near = closest_match(n.text, names);
      diags.error(n.location, "spec-bad-predicate",
                  "unknown predicate " + w_quoted(n.text) +
                      (near.empty() ? "" : "; did you mean " + w_quoted(near) + "?") +
                      " (GenerationChanged, LabelChanged, AnnotationChanged, ResourceVersionChanged, {labelSelector: "
                      "...} or {hook: Name})");
      return std::nullopt;
    }
    p.type = static_cast<SpecPredicateType>(at - names.begin());
    return p;
  }
  if (!n.is_mapping() || n.keys.size() != 1) {
    diags.error(
        n.location, "spec-wrong-type",
        "a predicate is a name (GenerationChanged, ...) or a mapping of exactly one of labelSelector and hook, not " +
            describe(n));
    return std::nullopt;
  }
  const std::string& key = n.keys[0];
  if (key == "labelSelector") {
    auto selector = w_read_selector(n.children[0], diags);
    if (!selector) return std::nullopt;
    p.type = SpecPredicateType::LabelSelector;
    p.selector = std::move(*selector);
  } else if (key == "hook") {
    auto name = w_hook_name(n.children[0], key, diags);
    if (!name) return std::nullopt;
    p.type = SpecPredicateType::Hook;
    p.hook = std::move(*name);
  } else {
    w_unknown_key(diags, key, n.key_locations[0], spec_predicate_keys());
    return std::nullopt;
  }
  return p;
}

}  // namespace

const std::vector<std::string>& spec_watches_top_level_keys() {
  static const std::vector<std::string> keys = {"predicates", "watches", "reconcileTimeout"};
  return keys;
}

const std::vector<std::string>& spec_predicate_names() {
  // In SpecPredicateType's order.
  static const std::vector<std::string> names = {"GenerationChanged", "LabelChanged", "AnnotationChanged",
                                                 "ResourceVersionChanged"};
  return names;
}
const std::vector<std::string>& spec_predicate_keys() {
  static const std::vector<std::string> keys = {"labelSelector", "hook"};
  return keys;
}
const std::vector<std::string>& spec_watch_keys() {
  static const std::vector<std::string> keys = {"kind", "map", "predicates", "metadataOnly"};
  return keys;
}
const std::vector<std::string>& spec_selector_keys() {
  static const std::vector<std::string> keys = {"matchLabels", "matchExpressions"};
  return keys;
}
const std::vector<std::string>& spec_expression_keys() {
  static const std::vector<std::string> keys = {"key", "operator", "values"};
  return keys;
}

std::vector<SpecPredicate> read_spec_predicates(const Node& n, Diagnostics& diags) {
  std::vector<SpecPredicate> out;
  if (!n.is_sequence()) {
    diags.error(n.location, "spec-wrong-type", "'predicates' must be a sequence of predicates, not " + describe(n));
    return out;
  }
  for (const Node& item : n.children) {
    auto p = w_read_predicate(item, diags);
    if (!p) continue;
    const bool repeated = p->type != SpecPredicateType::LabelSelector && p->type != SpecPredicateType::Hook &&
                          std::any_of(out.begin(), out.end(),
                                      [&](const SpecPredicate& q) { return q.type == p->type; });
    if (repeated) {
      diags.error(item.location, "spec-bad-predicate", "predicate " + w_quoted(item.text) + " is listed twice");
      continue;
    }
    out.push_back(std::move(*p));
  }
  return out;
}

std::vector<SpecWatch> read_spec_watches(const Node& n, Diagnostics& diags) {
  std::vector<SpecWatch> out;
  if (!n.is_sequence()) {
    diags.error(n.location, "spec-wrong-type",
                "'watches' must be a sequence of {kind, map, predicates}, not " + describe(n));
    return out;
  }
  for (const Node& item : n.children) {
    if (!item.is_mapping()) {
      diags.error(item.location, "spec-wrong-type",
                  "each of 'watches' must be a mapping of kind, map and predicates, not " + describe(item));
      continue;
    }
    SpecWatch w;
    w.location = item.location;
    bool ok = true;
    for (std::size_t i = 0; i < item.keys.size(); ++i) {
      const std::string& key = item.keys[i];
      const Node& value = item.children[i];
      if (key == "kind") {
        if (!w_is_string(value)) {
          diags.error(value.location, "spec-wrong-type", "'kind' must be a kind reference, not " + describe(value));
          ok = false;
        } else if (auto ref = parse_kind_ref(value.text, value.location, diags)) {
          w.kind = std::move(*ref);
        } else {
          ok = false;
        }
      } else if (key == "map") {
        w.map_location = value.location;
        if (auto name = w_hook_name(value, key, diags)) w.map = std::move(*name);
        else ok = false;
      } else if (key == "predicates") {
        w.predicates = read_spec_predicates(value, diags);
      } else if (key == "metadataOnly") {
        w.metadata_only_location = value.location;
        if (value.is_scalar() && resolve_scalar(value) == ScalarType::Bool) {
          w.metadata_only = to_json_text(value) == "true";
        } else {
          diags.error(value.location, "spec-wrong-type",
                      "'metadataOnly' must be true or false, not " + describe(value));
          ok = false;
        }
      } else {
        w_unknown_key(diags, key, item.key_locations[i], spec_watch_keys());
        ok = false;
      }
    }
    if (!item.find("kind") || !item.find("map")) {
      diags.error(
          item.location, "spec-missing-key",
          std::string("a watch needs ") +
              (!item.find("kind") ? "'kind' (the kind to watch)" : "'map' (the hook that maps an object to requests)"));
      ok = false;
    }
    if (ok) out.push_back(std::move(w));
  }
  return out;
}

std::optional<std::int64_t> parse_go_duration(std::string_view text, std::string& why) {
  // time.ParseDuration: [-+]?([0-9]*(\.[0-9]*)?[a-z]+)+, or "0".
  std::string_view s = text;
  bool negative = false;
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    negative = s.front() == '-';
    s.remove_prefix(1);
  }
  if (s == "0") return 0;
  if (s.empty()) {
    why = "it is empty";
    return std::nullopt;
  }
  static const std::pair<std::string_view, long double> units[] = {
      {"ns", 1.0L}, {"us", 1e3L}, {"\xC2\xB5s", 1e3L}, {"\xCE\xBCs", 1e3L},
      {"ms", 1e6L}, {"s", 1e9L},  {"m", 60e9L},        {"h", 3600e9L}};
  long double total = 0;
  while (!s.empty()) {
    std::size_t i = 0;
    std::string number;
    while (i < s.size() && (ascii::is_digit(s[i]) || s[i] == '.')) number += s[i++];
    if (number.empty() || number == "." || std::count(number.begin(), number.end(), '.') > 1) {
      why = "expected a number at " + w_quoted(s);
      return std::nullopt;
    }
    std::size_t j = i;
    while (j < s.size() && !ascii::is_digit(s[j]) && s[j] != '.') ++j;
    const std::string_view unit = s.substr(i, j - i);
    const auto u = std::find_if(std::begin(units), std::end(units), [&](const auto& x) { return x.first == unit; });
    if (unit.empty()) {
      why = "missing unit after " + number + " (ns, us, ms, s, m or h)";
      return std::nullopt;
    }
    if (u == std::end(units)) {
      why = "unknown unit " + w_quoted(unit) + " (ns, us, ms, s, m or h)";
      return std::nullopt;
    }
    total += std::stold(number[0] == '.' ? "0" + number : number) * u->second;
    s.remove_prefix(j);
  }
  if (total > static_cast<long double>(std::numeric_limits<std::int64_t>::max())) {
    why = "it overflows (the longest is about 2562047h)";
    return std::nullopt;
  }
  const auto ns = static_cast<std::int64_t>(total);
  return negative ? -ns : ns;
}

void read_spec_reconcile_timeout(const Node& n, ReconcilerSpec& spec, Diagnostics& diags) {
  if (!w_is_string(n) && !(n.is_scalar() && resolve_scalar(n) == ScalarType::Int && n.text == "0")) {
    diags.error(n.location, "spec-wrong-type",
                "'reconcileTimeout' must be a Go duration like '30s' or '2m', not " + describe(n));
    return;
  }
  std::string why;
  const auto ns = parse_go_duration(n.text, why);
  if (!ns) {
    diags.error(n.location, "spec-bad-duration",
                "reconcileTimeout " + w_quoted(n.text) + " is not a Go duration: " + why);
    return;
  }
  if (*ns < 0) {
    diags.error(n.location, "spec-bad-duration",
                "reconcileTimeout " + w_quoted(n.text) + " must not be negative (0: no timeout)");
    return;
  }
  spec.reconcile_timeout = n.text;
  spec.reconcile_timeout_ns = *ns;
}

std::optional<std::string> read_spec_label_selector(const Node& n, std::string_view key_name, std::string_view if_empty,
                                                    Diagnostics& diags) {
  return w_read_selector(n, diags, key_name, if_empty);
}

}  // namespace rrgen
