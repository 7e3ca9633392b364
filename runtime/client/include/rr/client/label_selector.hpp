// Label selectors: the string grammar (=, ==, !=, in, notin, exists, !exists; comma = AND), the
// metav1.LabelSelector form, matching, and the canonical String() form used in comparisons.
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
  enum class Op { Equals, NotEquals, In, NotIn, Exists, DoesNotExist };
  struct Requirement {
    std::string key;
    Op op = Op::Equals;
    std::vector<std::string> values;  // sorted, deduplicated
    bool operator==(const Requirement&) const = default;
  };

  Selector() = default;  // matches everything
  // Parses the string grammar; throws std::invalid_argument with a message naming the position.
  static Selector parse(std::string_view text);
  // metav1.LabelSelectorAsSelector: an empty selector matches everything; throws
  // std::invalid_argument on an unknown operator or bad values.
  static Selector from(const LabelSelector& selector);
  static Selector from_labels(const std::map<std::string, std::string>& labels);  // all key=value

  bool matches(const std::map<std::string, std::string>& labels) const;
  bool empty() const noexcept { return requirements_.empty(); }
  // Canonical text, requirements sorted by key (as labels.Selector.String()): "a=b,c in (x,y),!d".
  std::string str() const;
  const std::vector<Requirement>& requirements() const noexcept { return requirements_; }
  bool operator==(const Selector&) const = default;

 private:
  std::vector<Requirement> requirements_;
};

// Field selectors: "metadata.name=x,metadata.namespace!=y" (=, ==, != only).
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
  // a missing field reads as "".
  bool matches(const Json& object) const;
  const std::vector<Term>& terms() const noexcept { return terms_; }
  bool empty() const noexcept { return terms_.empty(); }
  std::string str() const;

 private:
  std::vector<Term> terms_;
};

}  // namespace rr
