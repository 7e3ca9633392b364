// Validation of a value against a compiled node, in the order kube-openapi's SchemaValidator runs
// its parts (type, junctors, string, format, number, slice, enum, object), the embedded resources'
// metadata apiextensions adds, and the node's NodeCheck.
// Ratcheting: a node's findings (its own; its children's are theirs) are dropped when its value is
// unchanged from the correlated old value (correlate.hpp says what correlates). The NodeChecks run
// at unchanged values too and ratchet by themselves (a transition rule is never ratcheted).
#include <cmath>

#include "correlate.hpp"
#include "embedded.hpp"
#include "error_text.hpp"
#include "rr/core/go_quote.hpp"
#include "walk.hpp"

namespace rr::schema {
namespace {

const char* json_type(const Json& v) {
  switch (v.type()) {
    case Json::value_t::null: return "null";
    case Json::value_t::boolean: return "boolean";
    case Json::value_t::number_integer:
    case Json::value_t::number_unsigned: return "integer";
    case Json::value_t::number_float: return "number";
    case Json::value_t::string: return "string";
    case Json::value_t::array: return "array";
    default: return "object";
  }
}

// go-openapi accepts a float that is a JSON integer (|f| <= 2^53, no fraction) for type integer.
bool integral(const Json& v) {
  if (v.is_number_integer()) return true;
  if (!v.is_number_float()) return false;
  const double f = v.get<double>();
  return std::isfinite(f) && std::fabs(f) <= 9007199254740992.0 && std::trunc(f) == f;
}

bool type_matches(const Node& n, const Json& value) {
  if (n.int_or_string) return value.is_string() || integral(value);
  if (n.type.empty()) return true;
  const std::string_view t = json_type(value);
  return t == n.type || (n.type == "number" && t == "integer") || (n.type == "integer" && integral(value));
}

// kube-openapi's "<name> in body"; the root's name is "" (" in body").
std::string subject(const std::string& path) { return path + " in body"; }

// Junctor findings are plain errors in kube-openapi, which apiextensions reports at a nil path.
FieldError composite(const std::string& path, const std::string& what) {
  return FieldError{"", FieldErrorType::Invalid, "<nil>: Invalid value: \"\": " + go_quote(path) + " " + what};
}

void drain(Validator& v, std::vector<FieldError>& into) {
  for (auto& e : v.take()) into.push_back(std::move(e));
}

// Where the walk is: the correlated old value, whether the NodeChecks may see it as old_self, and
// for them, whether the nearest ancestor they could correlate is unchanged.
struct Old {
  const Json* value = nullptr;
  bool for_checks = true;
  bool ancestor_unchanged = false;
};

class Walker {
 public:
  Walker(Validator& v, ValidationRun& run) : v_(v), run_(run) {}

  void walk(const Node& n, const Json& value, Old old, const std::string& check_path, std::vector<FieldError>& out) {
    const bool same = run_.ratcheting && old.value && unchanged(n, value, *old.value);
    const Json* check_old = old.for_checks ? old.value : nullptr;
    const bool check_unchanged = check_old ? *check_old == value : old.ancestor_unchanged;
    std::vector<FieldError> own, below, found_by_junctors;
    bool wrong_type = false;
    if (value.is_null()) {
      wrong_type = !n.nullable && (!n.type.empty() || n.int_or_string);
      if (wrong_type) type_error(n, value, own);
      null_enum(n, own);
    } else {
      wrong_type = type_check(n, value, own);
      junctors(n, value, found_by_junctors);
      own.insert(own.end(), found_by_junctors.begin(), found_by_junctors.end());
      scalars(n, value, own);
      wrong_type = wrong_type || format_invalid_;
      enum_check(n, value, own);
      const Old here{old.value, old.for_checks, check_unchanged};
      if (value.is_array()) array(n, value, here, check_path, own, below);
      if (value.is_object()) object(n, value, here, check_path, own, below);
    }
    if (wrong_type && !same) run_.type_invalid = true;
    std::vector<FieldError> checked;
    if (n.check && !value.is_null()) {
      const CheckContext context{run_.ratcheting, check_old ? false : old.ancestor_unchanged, run_.warnings,
                                 &run_.budget};
      n.check->check(value, check_old, check_path, context, checked);
      run_.checks_ran = true;
    }
    if (!same) out.insert(out.end(), own.begin(), own.end());
    // An alternative's findings reach the run through its junctor's.
    if (!same && alternatives_ == 0)
      run_.junctor_errors.insert(run_.junctor_errors.end(), found_by_junctors.begin(), found_by_junctors.end());
    out.insert(out.end(), below.begin(), below.end());
    run_.check_errors.insert(run_.check_errors.end(), checked.begin(), checked.end());
  }

 private:
  // kube-openapi runs only the type and enum checks on null.
  void null_enum(const Node& n, std::vector<FieldError>& own) {
    if (n.enum_json.empty()) return;
    for (const auto& allowed : n.enum_json)
      if (allowed == "null") return;
    // field.Error prints the nil value as the string "null", quoted.
    std::vector<std::string_view> allowed(n.enum_json.begin(), n.enum_json.end());
    v_.enum_value("\"null\"", allowed);
    drain(v_, own);
  }

  // kube-openapi's typeValidator, format first: a number or object where a (kept) format is
  // declared fails on the format; a string or list there is not type-checked unless the type is
  // numeric. Returns whether it reported a wrong type.
  bool type_check(const Node& n, const Json& value, std::vector<FieldError>& own) {
    if (!n.format_name.empty() && !value.is_string() && !value.is_array()) {
      if ((!n.type.empty() || n.int_or_string) && type_matches(n, value)) return false;
      const std::string got = value.is_number_integer() ? "\"int64\""
                              : value.is_number_float() ? "\"float64\""
                                                        : "\"\"";
      own.push_back(field_error(v_.path(), FieldErrorType::Invalid, got,
                                subject(v_.path()) + " must be of type " + n.format_name + ": " + got));
      return true;
    }
    const bool numeric = n.type == "number" || n.type == "integer" || n.int_or_string;
    if (!n.format_name.empty() && !numeric) return false;
    if (type_matches(n, value)) return false;
    type_error(n, value, own);
    return true;
  }

  void type_error(const Node& n, const Json& value, std::vector<FieldError>& own) {
    const std::string t = std::string("\"") + json_type(value) + "\"";
    const std::string want = n.int_or_string ? std::string("integer,string") : n.type;
    own.push_back(
        field_error(v_.path(), FieldErrorType::Invalid, t, subject(v_.path()) + " must be of type " + want + ": " + t));
  }

  // anyOf, oneOf, allOf and not, with kube-openapi's messages and the causes it keeps (for anyOf
  // and oneOf the first failing alternative's: its MatchCount heuristic is not reproduced).
  void junctors(const Node& n, const Json& value, std::vector<FieldError>& own) {
    auto errors_of = [&](const Node& alt) {
      std::vector<FieldError> errs;
      alternative(alt, value, errs);
      return errs;
    };
    if (!n.any_of.empty()) {
      std::vector<FieldError> first_failure;
      bool valid = false, failed = false;
      for (const auto& alt : n.any_of) {
        auto errs = errors_of(*alt);
        if ((valid = errs.empty())) break;
        if (!failed) first_failure = std::move(errs), failed = true;
      }
      if (!valid) {
        own.push_back(composite(v_.path(), "must validate at least one schema (anyOf)"));
        own.insert(own.end(), first_failure.begin(), first_failure.end());
      }
    }
    if (!n.one_of.empty()) {
      std::size_t valid = 0;
      std::vector<FieldError> first_failure;
      bool failed = false;
      for (const auto& alt : n.one_of) {
        auto errs = errors_of(*alt);
        if (errs.empty()) ++valid;
        else if (!failed && valid == 0) first_failure = std::move(errs), failed = true;
      }
      if (valid != 1) {
        own.push_back(
            composite(v_.path(), "must validate one and only one schema (oneOf). " +
                                     (valid == 0 ? std::string("Found none valid")
                                                 : "Found " + std::to_string(valid) + " valid alternatives")));
        if (valid == 0) own.insert(own.end(), first_failure.begin(), first_failure.end());
      }
    }
    if (!n.all_of.empty()) {
      std::size_t valid = 0;
      for (const auto& alt : n.all_of) {
        auto errs = errors_of(*alt);
        valid += errs.empty();
        own.insert(own.end(), errs.begin(), errs.end());
      }
      if (valid != n.all_of.size())
        own.push_back(composite(
            v_.path(), std::string("must validate all the schemas (allOf)") + (valid == 0 ? ". None validated" : "")));
    }
    if (n.not_ && errors_of(*n.not_).empty()) own.push_back(composite(v_.path(), "must not validate the schema (not)"));
  }

  // A junctor's alternative: value validations only, never ratcheted on its own, and its type
  // findings (the int-or-string idiom's) do not withhold the NodeChecks.
  void alternative(const Node& alt, const Json& value, std::vector<FieldError>& out) {
    const bool ratcheting = run_.ratcheting, type_invalid = run_.type_invalid;
    run_.ratcheting = false;
    ++alternatives_;
    walk(alt, value, Old{}, v_.path(), out);
    --alternatives_;
    run_.ratcheting = ratcheting;
    run_.type_invalid = type_invalid;
  }

  void scalars(const Node& n, const Json& value, std::vector<FieldError>& own) {
    format_invalid_ = false;
    if (value.is_string()) {
      const auto& s = value.get_ref<const std::string&>();
      if (n.max_length) v_.max_length(s, *n.max_length);
      if (n.min_length) v_.min_length(s, *n.min_length);
      if (n.pattern) v_.pattern(s, *n.pattern);
      if (n.format != Format::None) {
        // kube-openapi reports a format failure as a type error (field.TypeInvalid).
        const std::size_t before = v_.errors().size();
        v_.format(s, n.format);
        format_invalid_ = v_.errors().size() > before;
      }
    }
    if (value.is_number()) {
      const double d = value.get<double>();
      if (n.multiple_of) v_.multiple_of(d, *n.multiple_of);
      if (n.maximum) v_.maximum(d, *n.maximum, n.exclusive_maximum);
      if (n.minimum) v_.minimum(d, *n.minimum, n.exclusive_minimum);
    }
    drain(v_, own);
  }

  void enum_check(const Node& n, const Json& value, std::vector<FieldError>& own) {
    if (n.enum_json.empty()) return;
    std::vector<std::string_view> allowed(n.enum_json.begin(), n.enum_json.end());
    v_.enum_value(value.dump(), allowed);
    drain(v_, own);
  }

  void array(const Node& n, const Json& value, Old old, const std::string& check_path, std::vector<FieldError>& own,
             std::vector<FieldError>& below) {
    if (n.items) {
      const ListCorrelation correlation(n, old.value);
      for (std::size_t i = 0; i < value.size(); ++i) {
        auto scope = v_.index(i);
        const Old item_old{correlation.find(value[i], i), old.for_checks && correlation.for_checks(),
                           old.ancestor_unchanged};
        walk(*n.items, value[i], item_old, check_path + "[" + std::to_string(i) + "]", below);
      }
    }
    if (n.min_items) v_.min_items(value.size(), *n.min_items);
    if (n.max_items) v_.max_items(value.size(), *n.max_items);
    drain(v_, own);
  }

  void object(const Node& n, const Json& value, Old old, const std::string& check_path, std::vector<FieldError>& own,
              std::vector<FieldError>& below) {
    // kube-openapi stops at a failed min/maxProperties: no members, no required.
    if (n.min_properties) v_.min_properties(value.size(), *n.min_properties);
    if (n.max_properties) v_.max_properties(value.size(), *n.max_properties);
    if (!v_.errors().empty()) return drain(v_, own);
    for (const auto& [name, member] : value.items()) {
      const Node* child = nullptr;
      std::string at;
      if (auto it = n.properties.find(name); it != n.properties.end()) {
        child = it->second.get();
        at = check_path.empty() ? name : check_path + "." + name;
      } else if (n.additional) {
        child = n.additional.get();
        at = check_path + "[" + name + "]";
      }
      if (!child) continue;
      auto scope = v_.field(name);
      walk(*child, member, Old{old_member(old.value, name), old.for_checks && !n.atomic_map, old.ancestor_unchanged},
           at, below);
    }
    for (const auto& r : n.required)
      if (!value.contains(r)) v_.required(r);
    drain(v_, own);
    if (n.embedded) check_embedded(value, check_path, run_.embedded_errors);
  }

  Validator& v_;
  ValidationRun& run_;
  bool format_invalid_ = false;  // set by scalars() for the node being walked
  int alternatives_ = 0;         // how many junctor alternatives the walk is inside
};

}  // namespace

void validate_value(const Node& node, const Json& value, const Json* old, Validator& v, ValidationRun& run,
                    std::vector<FieldError>& out) {
  Walker(v, run).walk(node, value, Old{old, true}, v.path(), out);
}

}  // namespace rr::schema
