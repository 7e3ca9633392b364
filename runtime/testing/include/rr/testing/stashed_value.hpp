// A value a sub-reconciler test puts in the stash (given_stashed_values) or expects there
// (expect_stashed_values). It keeps the value as the std::any the stash holds, so a
// Stasher<V> finds it, plus how to compare and print values of its type:
//
//   StashedValue::of(config_map)              a generated kind: compared as an object (LTT,
//                                             apiVersion/kind, resourceVersion and
//                                             creationTimestamp ignored; empty == absent)
//   StashedValue::of(std::vector<...>{...})   anything nlohmann can write: compared as JSON
//   StashedValue::of(my_value)                anything else with operator==
//   StashedValue::of(v, equal)                with your own equality
//   StashedValue::absent()                    the key must not be in the stash
//
// String literals are stored as std::string. A generated kind is compared out of line (through
// its to_json), so this header needs rr::Json only declared; a unit that stashes any other value
// includes rr/core/json.hpp (a static_assert says so), as those are described, and most
// compared, as JSON.
#pragma once
#include <any>
#include <concepts>
#include <functional>
#include <sstream>
#include <string>
#include <type_traits>
#include <typeinfo>

#include "rr/client/client.hpp"
#include "rr/core/fwd.hpp"
#include "rr/testing/json_diff.hpp"
#include "rr/testing/normalize.hpp"

namespace rr::testing {

// A readable name of a type ("std::vector<int>"), for messages.
std::string type_name(const std::type_info& type);

namespace detail {
// rr::Json, spelled as a type that depends on V so that it is looked at only when V is stashed.
template <class V>
struct JsonFor {
  using type = Json;
};
// rr::Json is complete: rr/core/json.hpp is included.
template <class V>
concept JsonDefinedFor = requires {
  sizeof(typename JsonFor<V>::type);
};

// A generated kind stashed: described, and compared under ObjectComparison::StashedValue,
// through its codec (to_json), out of line.
std::string describe_typed_object(const client_detail::ObjectCodec& codec, const void* object);
std::string diff_typed_objects(const client_detail::ObjectCodec& codec, const void* expected, const void* actual);
}  // namespace detail

class StashedValue {
 public:
  using Compare = std::function<std::string(const std::any& expected, const std::any* actual)>;
  using Describe = std::function<std::string(const std::any& value)>;

  StashedValue() = default;  // = absent()

  template <class V>
  static StashedValue of(V value);
  template <class V, class Equal>
    requires std::predicate<Equal, const V&, const V&>
  static StashedValue of(V value, Equal equal);
  static StashedValue of(const char* text);  // as std::string (out of line: compared as JSON)
  static StashedValue absent() { return {}; }

  bool is_absent() const noexcept { return !value_.has_value(); }
  const std::any& value() const noexcept { return value_; }
  // "" when `actual` (nullptr: the key is not stashed) is what this value expects; otherwise the
  // difference, in the diff's line format.
  std::string compare(const std::any* actual) const;
  std::string describe() const { return describe_ ? describe_(value_) : std::string("(absent)"); }

 private:
  template <class V>
  static std::string describe_typed(const V& v);
  template <class V>
  static std::string type_mismatch(const std::any* actual);

  std::any value_;
  Compare compare_;
  Describe describe_;
};

// --- implementation ---

template <class V>
std::string StashedValue::describe_typed(const V& v) {
  if constexpr (Object<V>) {
    return detail::describe_typed_object(client_detail::codec_of<V>, &v);
  } else if constexpr (!detail::JsonDefinedFor<V>) {
    static_assert(
        detail::JsonDefinedFor<V>,
        "StashedValue::of: a value that is not a generated kind is described as JSON; include rr/core/json.hpp");
    return {};
  } else if constexpr (std::is_constructible_v<typename detail::JsonFor<V>::type, const V&>) {
    return describe_json(typename detail::JsonFor<V>::type(v));
  } else if constexpr (requires(std::ostream & os) { os << v; }) {
    std::ostringstream os;
    os << v;
    return os.str();
  } else {
    return "(a " + type_name(typeid(V)) + ")";
  }
}

template <class V>
std::string StashedValue::type_mismatch(const std::any* actual) {
  if (!actual) return "  -(a " + type_name(typeid(V)) + ") +(absent)";
  return "  -(a " + type_name(typeid(V)) + ") +(a " + type_name(actual->type()) + ")";
}

template <class V>
StashedValue StashedValue::of(V value) {
  using J = typename detail::JsonFor<V>::type;
  if constexpr (!Object<V>) {
    static_assert(detail::JsonDefinedFor<V>,
                  "StashedValue::of: a value that is not a generated kind is compared as JSON or with operator==; "
                  "include rr/core/json.hpp");
    if constexpr (detail::JsonDefinedFor<V>) {
      static_assert(std::is_constructible_v<J, const V&> || std::equality_comparable<V>,
                    "a stashed value needs JSON conversion or operator==; or pass an equality to of(value, equal)");
    }
  }
  StashedValue out;
  out.value_ = std::move(value);
  out.describe_ = [](const std::any& v) { return describe_typed(*std::any_cast<V>(&v)); };
  out.compare_ = [](const std::any& expected, const std::any* actual) -> std::string {
    const V* a = actual ? std::any_cast<V>(actual) : nullptr;
    if (!a) return type_mismatch<V>(actual);
    const V& e = *std::any_cast<V>(&expected);
    if constexpr (Object<V>) {
      return detail::diff_typed_objects(client_detail::codec_of<V>, &e, a);
    } else if constexpr (std::is_constructible_v<J, const V&>) {
      return diff_json(equate_empty(drop_last_transition_times(J(e))), equate_empty(drop_last_transition_times(J(*a))));
    } else {
      if (e == *a) return {};
      return "  -" + describe_typed(e) + " +" + describe_typed(*a);
    }
  };
  return out;
}

template <class V, class Equal>
  requires std::predicate<Equal, const V&, const V&>
StashedValue StashedValue::of(V value, Equal equal) {
  StashedValue out;
  out.value_ = std::move(value);
  out.describe_ = [](const std::any& v) { return describe_typed(*std::any_cast<V>(&v)); };
  out.compare_ = [equal = std::move(equal)](const std::any& expected, const std::any* actual) -> std::string {
    const V* a = actual ? std::any_cast<V>(actual) : nullptr;
    if (!a) return type_mismatch<V>(actual);
    const V& e = *std::any_cast<V>(&expected);
    if (equal(e, *a)) return {};
    return "  -" + describe_typed(e) + " +" + describe_typed(*a);
  };
  return out;
}

inline std::string StashedValue::compare(const std::any* actual) const {
  if (!compare_) return actual ? "  -(absent) +(a " + type_name(actual->type()) + ")" : std::string();
  return compare_(value_, actual);
}

}  // namespace rr::testing
