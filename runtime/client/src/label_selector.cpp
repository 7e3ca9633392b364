// Label selectors: construction from metav1.LabelSelector and labels, matching, canonical text.
#include "rr/client/label_selector.hpp"

#include <algorithm>
#include <charconv>
#include <stdexcept>
#include <tuple>

#include "label_syntax.hpp"
#include "rr/client/quote.hpp"
#include "selector_requirements.hpp"

namespace rr {
namespace {

using Op = Selector::Op;
using Requirement = Selector::Requirement;

// strconv.ParseInt(s, 10, 64): an optional sign, then decimal digits.
std::optional<std::int64_t> parse_int64(std::string_view s) {
  if (!s.empty() && s.front() == '+') {
    s.remove_prefix(1);
    if (!s.empty() && s.front() == '-') return std::nullopt;  // from_chars would take "+-1"'s "-1"
  }
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
  if (ec != std::errc() || end != s.data() + s.size()) return std::nullopt;
  return value;
}

bool has_value(const Requirement& r, const std::string& value) {
  return std::binary_search(r.values.begin(), r.values.end(), value);
}

bool requirement_matches(const Requirement& r, const std::map<std::string, std::string>& labels) {
  const auto it = labels.find(r.key);
  const bool present = it != labels.end();
  switch (r.op) {
    case Op::Equals:
    case Op::In:
      return present && has_value(r, it->second);
    case Op::NotEquals:
    case Op::NotIn:
      return !present || !has_value(r, it->second);
    case Op::Exists:
      return present;
    case Op::DoesNotExist:
      return !present;
    case Op::GreaterThan:
    case Op::LessThan: {
      if (!present || r.values.size() != 1) return false;
      const auto actual = parse_int64(it->second);
      const auto bound = parse_int64(r.values.front());
      if (!actual || !bound) return false;
      return r.op == Op::GreaterThan ? *actual > *bound : *actual < *bound;
    }
  }
  return false;
}

std::string join(const std::vector<std::string>& values) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) out += ',';
    out += values[i];
  }
  return out;
}

// labels.Requirement.String().
std::string requirement_text(const Requirement& r) {
  switch (r.op) {
    case Op::Equals: return r.key + "=" + join(r.values);
    case Op::NotEquals: return r.key + "!=" + join(r.values);
    case Op::In: return r.key + " in (" + join(r.values) + ")";
    case Op::NotIn: return r.key + " notin (" + join(r.values) + ")";
    case Op::Exists: return r.key;
    case Op::DoesNotExist: return "!" + r.key;
    case Op::GreaterThan: return r.key + ">" + join(r.values);
    case Op::LessThan: return r.key + "<" + join(r.values);
  }
  return r.key;
}

Op operator_of(const std::string& name, std::size_t index) {
  if (name == "In") return Op::In;
  if (name == "NotIn") return Op::NotIn;
  if (name == "Exists") return Op::Exists;
  if (name == "DoesNotExist") return Op::DoesNotExist;
  throw std::invalid_argument("invalid label selector: matchExpressions[" + std::to_string(index) + "]: " +
                              go_quote(name) + " is not a valid label selector operator");
}

}  // namespace

namespace detail {

std::string requirement_error(const Requirement& r) {
  if (std::string why = label_key_error(r.key); !why.empty()) return "invalid key " + go_quote(r.key) + ": " + why;
  switch (r.op) {
    case Op::In:
    case Op::NotIn:
      if (r.values.empty()) return "for 'in', 'notin' operators, values set can't be empty";
      break;
    case Op::Equals:
    case Op::NotEquals:
      if (r.values.size() != 1) return "exact-match compatibility requires one single value";
      break;
    case Op::Exists:
    case Op::DoesNotExist:
      if (!r.values.empty()) return "values set must be empty for exists and does not exist";
      break;
    case Op::GreaterThan:
    case Op::LessThan:
      if (r.values.size() != 1) return "for 'Gt', 'Lt' operators, exactly one value is required";
      if (!parse_int64(r.values.front())) {
        return "invalid value " + go_quote(r.values.front()) + ": for 'Gt', 'Lt' operators, the value must be an integer";
      }
      break;
  }
  for (const std::string& value : r.values) {
    if (std::string why = label_value_error(value); !why.empty()) return "invalid value " + go_quote(value) + ": " + why;
  }
  return {};
}

void canonicalize(std::vector<Requirement>& requirements) {
  for (Requirement& r : requirements) {
    std::sort(r.values.begin(), r.values.end());
    r.values.erase(std::unique(r.values.begin(), r.values.end()), r.values.end());
  }
  const auto order = [](const Requirement& a, const Requirement& b) {
    return std::tie(a.key, a.op, a.values) < std::tie(b.key, b.op, b.values);
  };
  std::sort(requirements.begin(), requirements.end(), order);
  requirements.erase(std::unique(requirements.begin(), requirements.end()), requirements.end());
}

}  // namespace detail

Selector Selector::from(const LabelSelector& selector) {
  std::vector<Requirement> requirements;
  if (selector.match_labels) {
    for (const auto& [key, value] : *selector.match_labels) {
      requirements.push_back({key, Op::Equals, {value}});
      if (std::string why = detail::requirement_error(requirements.back()); !why.empty()) {
        throw std::invalid_argument("invalid label selector: matchLabels[" + go_quote(key) + "]: " + why);
      }
    }
  }
  if (selector.match_expressions) {
    const auto& expressions = *selector.match_expressions;
    for (std::size_t i = 0; i < expressions.size(); ++i) {
      const LabelSelectorRequirement& e = expressions[i];
      requirements.push_back({e.key, operator_of(e.operator_, i), e.values.value_or(std::vector<std::string>{})});
      if (std::string why = detail::requirement_error(requirements.back()); !why.empty()) {
        throw std::invalid_argument("invalid label selector: matchExpressions[" + std::to_string(i) + "]: " + why);
      }
    }
  }
  detail::canonicalize(requirements);
  Selector out;
  out.requirements_ = std::move(requirements);
  return out;
}

Selector Selector::from_labels(const std::map<std::string, std::string>& labels) {
  Selector out;
  for (const auto& [key, value] : labels) out.requirements_.push_back({key, Op::Equals, {value}});
  return out;  // a map is already sorted by key, and each requirement has one value
}

bool Selector::matches(const std::map<std::string, std::string>& labels) const {
  return std::all_of(requirements_.begin(), requirements_.end(),
                     [&](const Requirement& r) { return requirement_matches(r, labels); });
}

std::string Selector::str() const {
  std::string out;
  for (const Requirement& r : requirements_) {
    if (!out.empty()) out += ',';
    out += requirement_text(r);
  }
  return out;
}

}  // namespace rr
