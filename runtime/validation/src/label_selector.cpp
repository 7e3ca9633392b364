// ValidateLabelSelector and LabelSelectorAsSelector(...).Matches over JSON selectors.
#include "rr/validation/label_selector.hpp"

#include <string>
#include <vector>

#include "go_text.hpp"
#include "rr/validation/names.hpp"
#include "rr/validation/object_meta.hpp"

namespace rr::validation {
namespace {

using detail::child;
using detail::member;
using detail::string_member;

bool is_in_or_not_in(std::string_view op) { return op == "In" || op == "NotIn"; }
bool is_exists(std::string_view op) { return op == "Exists" || op == "DoesNotExist"; }

std::size_t list_size(const Json* v) { return v && v->is_array() ? v->size() : 0; }

}  // namespace

ErrorList validate_label_selector(const Json& selector, std::string_view path, LabelSelectorOptions options) {
  ErrorList errs;
  if (!selector.is_object()) return errs;
  if (const Json* labels = member(selector, "matchLabels")) {
    auto more = validate_labels(*labels, child(path, "matchLabels"));
    errs.insert(errs.end(), more.begin(), more.end());
  }
  const Json* exprs = member(selector, "matchExpressions");
  if (!exprs || !exprs->is_array()) return errs;
  const std::string exprs_path = child(path, "matchExpressions");
  for (std::size_t i = 0; i < exprs->size(); ++i) {
    const Json& req = (*exprs)[i];
    if (!req.is_object()) continue;
    const std::string at = detail::index(exprs_path, i);
    const std::string_view op = string_member(req, "operator");
    const Json* values = member(req, "values");
    if (is_in_or_not_in(op)) {
      if (list_size(values) == 0) {
        errs.push_back(required(child(at, "values"), "must be specified when `operator` is 'In' or 'NotIn'"));
      }
    } else if (is_exists(op)) {
      if (list_size(values) > 0) {
        errs.push_back(
            forbidden(child(at, "values"), "may not be specified when `operator` is 'Exists' or 'DoesNotExist'"));
      }
    } else {
      errs.push_back(invalid(child(at, "operator"), op, "not a valid selector operator"));
    }
    const std::string_view key = string_member(req, "key");
    for (std::string& m : is_qualified_name(key)) errs.push_back(invalid(child(at, "key"), key, std::move(m)));
    if (!options.allow_invalid_label_value && values && values->is_array()) {
      for (std::size_t v = 0; v < values->size(); ++v) {
        if (!(*values)[v].is_string()) continue;
        const std::string& value = (*values)[v].get_ref<const std::string&>();
        for (std::string& m : is_valid_label_value(value)) {
          errs.push_back(invalid(detail::index(child(at, "values"), v), value, std::move(m)));
        }
      }
    }
  }
  return errs;
}

bool label_selector_empty(const Json& selector) {
  const Json* labels = member(selector, "matchLabels");
  const std::size_t n = labels && labels->is_object() ? labels->size() : 0;
  return n + list_size(member(selector, "matchExpressions")) == 0;
}

std::optional<bool> label_selector_matches(const Json& selector, const Json& labels) {
  if (selector.is_null()) return false;  // labels.Nothing()
  if (!selector.is_object()) return std::nullopt;
  // Every requirement NewRequirement would refuse makes the conversion fail.
  if (!validate_label_selector(selector, "").empty()) return std::nullopt;
  const auto label = [&](const std::string& key) -> const std::string* {
    const Json* v = member(labels, key);
    return v && v->is_string() ? &v->get_ref<const std::string&>() : nullptr;
  };
  bool matches = true;
  if (const Json* ml = member(selector, "matchLabels"); ml && ml->is_object()) {
    for (const auto& [key, value] : ml->items()) {
      if (!value.is_string()) continue;
      const std::string* have = label(key);
      matches = matches && have && *have == value.get_ref<const std::string&>();
    }
  }
  if (const Json* exprs = member(selector, "matchExpressions"); exprs && exprs->is_array()) {
    for (const Json& req : *exprs) {
      if (!req.is_object()) continue;
      const std::string key(string_member(req, "key"));
      const std::string_view op = string_member(req, "operator");
      const std::string* have = label(key);
      bool in_values = false;
      if (const Json* values = member(req, "values"); have && values && values->is_array()) {
        for (const Json& v : *values)
          in_values = in_values || (v.is_string() && v.get_ref<const std::string&>() == *have);
      }
      if (op == "In") matches = matches && have && in_values;
      if (op == "NotIn") matches = matches && !in_values;
      if (op == "Exists") matches = matches && have;
      if (op == "DoesNotExist") matches = matches && !have;
    }
  }
  return matches;
}

std::string label_selector_json(const Json& selector) {
  if (!selector.is_object()) return "null";
  std::string s = "{";
  if (const Json* ml = member(selector, "matchLabels"); ml && ml->is_object() && !ml->empty()) {
    s += "\"matchLabels\":" + detail::go_json(*ml);
  }
  if (const Json* exprs = member(selector, "matchExpressions"); exprs && exprs->is_array() && !exprs->empty()) {
    s += std::string(s.size() > 1 ? "," : "") + "\"matchExpressions\":[";
    for (std::size_t i = 0; i < exprs->size(); ++i) {
      const Json& req = (*exprs)[i];
      s += std::string(i ? "," : "") + "{\"key\":" + detail::go_json_string(string_member(req, "key")) +
           ",\"operator\":" + detail::go_json_string(string_member(req, "operator"));
      const Json* listed = member(req, "values");
      const std::vector<std::string> values = listed ? detail::string_list(*listed) : std::vector<std::string>{};
      if (!values.empty()) s += ",\"values\":" + detail::go_json_string_list(values);
      s += "}";
    }
    s += "]";
  }
  return s + "}";
}

}  // namespace rr::validation
