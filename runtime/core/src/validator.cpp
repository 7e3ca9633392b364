// Findings worded like the API server: apiextensions-apiserver turns kube-openapi's schema errors
// into field.Errors (maxLength -> TooLong, maxItems/maxProperties -> TooMany, enum -> NotSupported,
// required -> Required, everything else -> Invalid with kube-openapi's text as detail).
#include "rr/core/validator.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

#include "formats.hpp"
#include "rr/core/codec.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/json.hpp"
#include "rr/core/json_reader.hpp"
#include "rr/core/pattern.hpp"
#include "text_util.hpp"

namespace rr {
namespace {

// JSON string text -> Go %q of its value; other JSON texts pass through.
std::string show_json(std::string_view json) {
  if (!json.empty() && json[0] == '"') {
    try {
      JsonReader r(json);
      std::string s;
      r.read(s);
      return detail::go_quote(s);
    } catch (const DecodeError&) {
    }
  }
  return std::string(json);
}

// The enum's allowed values as apiextensions lists them: strings as is, others as JSON, each quoted.
std::string supported_values(std::span<const std::string_view> allowed, bool allowed_are_json) {
  std::string s = "supported values: ";
  bool first = true;
  for (const auto a : allowed) {
    if (!first) s += ", ";
    first = false;
    if (allowed_are_json && !a.empty() && a[0] == '"') s += show_json(a);
    else s += detail::go_quote(a);
  }
  return s;
}

// go-openapi's swag.IsFloat64AJSONInteger: within +-2^53, integral up to a 1e-9 relative error.
bool is_integral(double f) {
  constexpr double kMaxJsonInt = 9007199254740992.0;  // 2^53
  if (!std::isfinite(f) || f < -kMaxJsonInt || f > kMaxJsonInt) return false;
  const double g = std::trunc(f);
  if (f == g) return true;
  const double diff = std::fabs(f - g);
  if (g == 0) return diff < 1e-9 * std::numeric_limits<double>::denorm_min();
  return diff / std::min(std::fabs(f) + std::fabs(g), std::numeric_limits<double>::max()) < 1e-9;
}

// Semantic JSON equality ("2" == "2.0", "\u00e9" == "é"), for values that differ as text.
bool json_equal(std::string_view a, std::string_view b) {
  try {
    return decode_text<Json>(a) == decode_text<Json>(b);
  } catch (const DecodeError&) {
    return false;
  }
}

}  // namespace

Validator::Validator(std::string root) : path_(std::move(root)) {}

Validator::Scope Validator::field(std::string_view name) {
  const std::size_t saved = path_.size();
  if (!path_.empty()) path_ += '.';
  path_ += name;
  return Scope(*this, saved);
}

Validator::Scope Validator::index(std::size_t i) {
  const std::size_t saved = path_.size();
  path_ += '[';
  path_ += std::to_string(i);
  path_ += ']';
  return Scope(*this, saved);
}

Validator::Scope Validator::key(std::string_view k) {
  const std::size_t saved = path_.size();
  path_ += '[';
  path_ += k;
  path_ += ']';
  return Scope(*this, saved);
}

void Validator::report(std::string at, FieldErrorType type, std::string_view shown_value, std::string_view detail) {
  std::string m;
  if (!at.empty()) {
    m += at;
    m += ": ";
  }
  m += to_string(type);
  const bool value_hidden =
      type == FieldErrorType::Required || type == FieldErrorType::Forbidden || type == FieldErrorType::TooLong;
  if (!value_hidden && !shown_value.empty()) {
    m += ": ";
    m += shown_value;
  }
  if (!detail.empty()) {
    m += ": ";
    m += detail;
  }
  errors_.push_back(FieldError{std::move(at), type, std::move(m)});
}

std::string Validator::subject() const { return (path_.empty() ? std::string("body") : path_ + " in body"); }

void Validator::add(FieldErrorType type, std::string detail) { report(path_, type, {}, detail); }

void Validator::required() { report(path_, FieldErrorType::Required, {}, {}); }

void Validator::required(std::string_view member) {
  std::string at = path_;
  if (!at.empty()) at += '.';
  at += member;
  report(std::move(at), FieldErrorType::Required, {}, {});
}

void Validator::minimum(double value, double bound, bool exclusive) {
  if (exclusive ? value > bound : value >= bound) return;
  report(path_, FieldErrorType::Invalid, detail::go_number(value),
         subject() + (exclusive ? " should be greater than " : " should be greater than or equal to ") +
             detail::go_number(bound));
}

void Validator::maximum(double value, double bound, bool exclusive) {
  if (exclusive ? value < bound : value <= bound) return;
  report(path_, FieldErrorType::Invalid, detail::go_number(value),
         subject() + (exclusive ? " should be less than " : " should be less than or equal to ") +
             detail::go_number(bound));
}

void Validator::multiple_of(double value, double factor) {
  if (!(factor > 0)) return;
  // go-openapi multiplies by the inverse for factors below one, so 0.3 is a multiple of 0.1.
  const double mult = factor < 1 ? 1 / factor * value : value / factor;
  if (is_integral(mult)) return;
  report(path_, FieldErrorType::Invalid, detail::go_number(value),
         subject() + " should be a multiple of " + detail::go_number(factor));
}

void Validator::min_length(std::string_view value, std::int64_t bound) {
  if (static_cast<std::int64_t>(detail::count_code_points(value)) >= bound) return;
  report(path_, FieldErrorType::Invalid, detail::go_quote(value),
         subject() + " should be at least " + std::to_string(bound) + " chars long");
}

void Validator::max_length(std::string_view value, std::int64_t bound) {
  if (static_cast<std::int64_t>(detail::count_code_points(value)) <= bound) return;
  report(path_, FieldErrorType::TooLong, detail::go_quote(value),
         bound >= 0 ? "may not be longer than " + std::to_string(bound) : std::string("value is too long"));
}

void Validator::pattern(std::string_view value, const Pattern& p) {
  if (!p.ok()) {
    report(path_, FieldErrorType::Invalid, detail::go_quote(value),
           "invalid pattern '" + p.source() + "': " + p.error());
    return;
  }
  if (p.search(value)) return;
  report(path_, FieldErrorType::Invalid, detail::go_quote(value), subject() + " should match '" + p.source() + "'");
}

void Validator::format(std::string_view value, Format f) {
  if (detail::check_format(value, f)) return;
  report(path_, FieldErrorType::Invalid, detail::go_quote(value),
         subject() + " must be of type " + std::string(detail::format_name(f)) + ": " + detail::go_quote(value));
}

void Validator::min_items(std::size_t count, std::int64_t bound) {
  if (static_cast<std::int64_t>(count) >= bound) return;
  report(path_, FieldErrorType::Invalid, std::to_string(count),
         subject() + " should have at least " + std::to_string(bound) + " items");
}

void Validator::max_items(std::size_t count, std::int64_t bound) {
  if (static_cast<std::int64_t>(count) <= bound) return;
  report(path_, FieldErrorType::TooMany, std::to_string(count),
         "must have at most " + std::to_string(bound) + " items");
}

void Validator::min_properties(std::size_t count, std::int64_t bound) {
  if (static_cast<std::int64_t>(count) >= bound) return;
  report(path_, FieldErrorType::Invalid, std::to_string(count),
         subject() + " should have at least " + std::to_string(bound) + " properties");
}

void Validator::max_properties(std::size_t count, std::int64_t bound) {
  if (static_cast<std::int64_t>(count) <= bound) return;
  // apiextensions reports TooManyProperties through field.TooMany, whose text says "items".
  report(path_, FieldErrorType::TooMany, std::to_string(count),
         "must have at most " + std::to_string(bound) + " items");
}

void Validator::enum_value(std::string_view value_json, std::span<const std::string_view> allowed_json) {
  for (const auto a : allowed_json)
    if (a == value_json) return;
  for (const auto a : allowed_json)
    if (json_equal(a, value_json)) return;
  report(path_, FieldErrorType::NotSupported, show_json(value_json), supported_values(allowed_json, true));
}

void Validator::enum_string(std::string_view value, std::span<const std::string_view> allowed) {
  for (const auto a : allowed)
    if (a == value) return;
  report(path_, FieldErrorType::NotSupported, detail::go_quote(value), supported_values(allowed, false));
}

void Validator::unique(std::span<const std::string> keys) {
  auto duplicate_at = [&](std::size_t i) {
    report(path_ + "[" + std::to_string(i) + "]", FieldErrorType::Duplicate, show_json(keys[i]), {});
  };
  if (keys.size() <= 32) {
    for (std::size_t i = 1; i < keys.size(); ++i)
      for (std::size_t j = 0; j < i; ++j)
        if (keys[j] == keys[i]) {
          duplicate_at(i);
          break;
        }
    return;
  }
  std::unordered_map<std::string_view, std::size_t> seen;
  seen.reserve(keys.size());
  for (std::size_t i = 0; i < keys.size(); ++i)
    if (!seen.emplace(keys[i], i).second) duplicate_at(i);
}

}  // namespace rr
