// Label selectors: the string grammar of labels.Parse (=, ==, !=, in, notin, key, !key, >, <;
// comma = AND), the metav1.LabelSelector form, matching, and the canonical String() form used in
// comparisons.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/core/meta.hpp"

namespace rr {

class Selector {
 public:
  // GreaterThan / LessThan ("replicas>1") exist only in the string grammar: one integer value,
  // matching labels whose value is an integer above / below it.
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist, GreaterThan, LessThan };
  struct Requirement {
    std::string key;
    Op op = Op::Equals;
    std::vector<std::string> values;  // sorted, deduplicated
    bool operator==(const Requirement&) const = default;
  };

  Selector() = default;  // matches everything
  // Parses the string grammar; throws std::invalid_argument with a message naming the position.
  // Keys must be qualified names and values label values, as labels.Parse checks them. Requirements
  // are kept sorted (key, operator, values) and deduplicated, so equal selectors compare equal.
  static Selector parse(std::string_view text);
  // metav1.LabelSelectorAsSelector: an empty selector matches everything; throws
  // std::invalid_argument on an unknown operator or bad values.
  static Selector from(const LabelSelector& selector);
  // All key=value (labels.SelectorFromSet: not validated, the labels come from a stored object).
  static Selector from_labels(const std::map<std::string, std::string>& labels);

  // NotIn and != match when the key is absent, as in Kubernetes.
  bool matches(const std::map<std::string, std::string>& labels) const;
  bool empty() const noexcept { return requirements_.empty(); }
  // Canonical text, requirements sorted by key (as labels.Selector.String()): "a=b,c in (x,y),!d".
  std::string str() const;
  const std::vector<Requirement>& requirements() const noexcept { return requirements_; }
  bool operator==(const Selector&) const = default;

 private:
  std::vector<Requirement> requirements_;
};

// Field selectors: "metadata.name=x,metadata.namespace!=y" (=, ==, != only), as fields.ParseSelector:
// terms split on unescaped commas, values unescaped (\\ \, \=), empty terms skipped; terms kept
// sorted by their text.
class FieldSelector {
 public:
  struct Term {
    std::string field;
    bool negated = false;
    std::string value;
    bool operator==(const Term&) const = default;
  };
  static FieldSelector parse(std::string_view text);  // throws std::invalid_argument
  // Resolves a field on a JSON object by its dotted path ("metadata.name", "spec.nodeName");
  // a missing field (or null) reads as "", numbers and booleans as their JSON text.
  bool matches(const Json& object) const;
  const std::vector<Term>& terms() const noexcept { return terms_; }
  bool empty() const noexcept { return terms_.empty(); }
  std::string str() const;  // values escaped again, so str() parses back to an equal selector
  // The same selector with every term on `from` on `to` instead (a server's field label
  // conversion: Pod's legacy spec.host is spec.nodeName).
  FieldSelector renamed(std::string_view from, std::string_view to) const;
  bool operator==(const FieldSelector&) const = default;

 private:
  std::vector<Term> terms_;
};

}  // namespace rr
