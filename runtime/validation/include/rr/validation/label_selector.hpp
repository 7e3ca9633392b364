// metav1 label selectors as the API server checks and applies them (apimachinery
// pkg/apis/meta/v1/validation ValidateLabelSelector, and LabelSelectorAsSelector + Matches), over a
// selector given as JSON. Members of the wrong JSON type are skipped (the decoder's 400).
#pragma once
#include <optional>
#include <string>
#include <string_view>

#include "rr/core/json.hpp"
#include "rr/validation/field_error.hpp"

namespace rr::validation {

struct LabelSelectorOptions {
  // LabelSelectorValidationOptions.AllowInvalidLabelValueInSelector: skip the values' syntax
  // (set by kinds that must keep accepting selectors stored before the check existed).
  bool allow_invalid_label_value = false;
};

// ValidateLabelSelector: matchLabels (keys qualified names, values label values) and each
// matchExpressions[i] (operator In/NotIn with values, Exists/DoesNotExist without, key a qualified
// name, values label values). A null selector has no findings.
ErrorList validate_label_selector(const Json& selector, std::string_view path, LabelSelectorOptions options = {});

// len(matchLabels) + len(matchExpressions) == 0 (also true for null).
bool label_selector_empty(const Json& selector);

// LabelSelectorAsSelector(selector).Matches(labels): nullopt when the selector cannot be converted
// (what upstream reports as "invalid label selector"); a null selector matches nothing and an
// empty one everything. `labels` is a map of strings (anything else: no labels).
std::optional<bool> label_selector_matches(const Json& selector, const Json& labels);

// json.Marshal of a *metav1.LabelSelector, in Go field order with its omitempty members, as a
// field.Invalid shows it: {"matchLabels":{"a":"b"},"matchExpressions":[{"key":...,"operator":...}]}.
std::string label_selector_json(const Json& selector);

}  // namespace rr::validation
