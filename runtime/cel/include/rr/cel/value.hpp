// CEL runtime values: int, uint, double, bool, string, bytes, null, list, map, type, duration,
// timestamp, optional, and errors as values (CEL's evaluation model: an error is a result that
// propagates, and `&&`, `||`, `?:` absorb it where the other operand decides).
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace rr::cel {

class Value;

// A span of time: `seconds` may be negative, `nanos` is always in [0, 1e9) (floor form), so
// -1.5s is {-2, 500000000}. CEL's range is about ±10000 years.
struct Duration {
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;
  friend bool operator==(const Duration&, const Duration&) = default;
  friend auto operator<=>(const Duration&, const Duration&) = default;
};

// A point in time since the Unix epoch, UTC, in the same floor form; CEL's range is
// 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z.
struct Timestamp {
  std::int64_t seconds = 0;
  std::int32_t nanos = 0;
  friend bool operator==(const Timestamp&, const Timestamp&) = default;
  friend auto operator<=>(const Timestamp&, const Timestamp&) = default;
};

// A CEL type as a value (`type(1) == int`): its name as CEL spells it.
struct Type {
  std::string name;
  friend bool operator==(const Type&, const Type&) = default;
};

struct Null {
  friend bool operator==(const Null&, const Null&) = default;
};

struct List;
class Map;

// A value of a library type CEL itself does not define (net.IP, net.CIDR, kubernetes.Quantity,
// kubernetes.URL, kubernetes.Semver): the library implements it.
class Opaque {
 public:
  virtual ~Opaque() = default;
  virtual std::string type_name() const = 0;
  // Equality with another opaque value of the same type_name().
  virtual bool equals(const Opaque& other) const = 0;
  // The text form string() gives (and debug_string shows).
  virtual std::string to_string() const = 0;
  // -1, 0 or 1 against another value of the same type_name(); nullopt for unordered types.
  virtual std::optional<int> compare(const Opaque& other) const {
    (void)other;
    return std::nullopt;
  }
};

// The order of the alternatives is the order of Kind.
enum class Kind : std::uint8_t {
  Null,
  Bool,
  Int,
  Uint,
  Double,
  String,
  Bytes,
  List,
  Map,
  Type,
  Duration,
  Timestamp,
  Optional,
  Opaque,
  Error,
};

class Value {
 public:
  struct StringRep {
    std::shared_ptr<const std::string> s;
  };
  struct BytesRep {
    std::shared_ptr<const std::string> s;
  };
  struct OptionalRep {
    std::shared_ptr<const Value> v;  // null: optional.none()
  };
  struct ErrorRep {
    std::shared_ptr<const std::string> message;
  };

  Value() : rep_(Null{}) {}
  Value(Null) : rep_(Null{}) {}
  Value(bool b) : rep_(b) {}
  // Signed integers are CEL ints, unsigned ones CEL uints.
  template <class T>
    requires(std::is_integral_v<T>&& std::is_signed_v<T> && !std::is_same_v<T, char>)
  Value(T i) : rep_(static_cast<std::int64_t>(i)) {}
  template <class T>
    requires(std::is_integral_v<T>&& std::is_unsigned_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>)
  Value(T u) : rep_(static_cast<std::uint64_t>(u)) {}
  Value(double d) : rep_(d) {}
  Value(std::string s) : rep_(StringRep{std::make_shared<const std::string>(std::move(s))}) {}
  Value(const char* s) : Value(std::string(s)) {}
  Value(std::shared_ptr<const List> l) : rep_(std::move(l)) {}
  Value(std::shared_ptr<const Map> m) : rep_(std::move(m)) {}
  Value(Type t) : rep_(std::move(t)) {}
  Value(Duration d) : rep_(d) {}
  Value(Timestamp t) : rep_(t) {}
  Value(std::shared_ptr<const Opaque> o) : rep_(std::move(o)) {}

  static Value bytes(std::string b) { return Value(BytesRep{std::make_shared<const std::string>(std::move(b))}); }
  static Value error(std::string message) {
    return Value(ErrorRep{std::make_shared<const std::string>(std::move(message))});
  }
  static Value optional_of(Value v) { return Value(OptionalRep{std::make_shared<const Value>(std::move(v))}); }
  static Value optional_none() { return Value(OptionalRep{}); }
  static Value list(std::vector<Value> items);
  // Entries in order; the caller guarantees unique keys (see Map::make for checked construction).
  static Value map(std::vector<std::pair<Value, Value>> entries);
  // A map made from a Kubernetes (JSON) object: its fields may also be selected by Kubernetes'
  // escaped names (`__namespace__` for "namespace", `a__dash__b` for "a-b"; Map::select).
  static Value object(std::vector<std::pair<Value, Value>> entries);

  Kind kind() const { return static_cast<Kind>(rep_.index()); }
  bool is_error() const { return kind() == Kind::Error; }

  bool as_bool() const { return std::get<bool>(rep_); }
  std::int64_t as_int() const { return std::get<std::int64_t>(rep_); }
  std::uint64_t as_uint() const { return std::get<std::uint64_t>(rep_); }
  double as_double() const { return std::get<double>(rep_); }
  const std::string& as_string() const { return *std::get<StringRep>(rep_).s; }
  const std::string& as_bytes() const { return *std::get<BytesRep>(rep_).s; }
  const List& as_list() const { return *std::get<std::shared_ptr<const List>>(rep_); }
  const Map& as_map() const { return *std::get<std::shared_ptr<const Map>>(rep_); }
  const Type& as_type() const { return std::get<Type>(rep_); }
  Duration as_duration() const { return std::get<Duration>(rep_); }
  Timestamp as_timestamp() const { return std::get<Timestamp>(rep_); }
  // The optional's value, or nullptr for optional.none().
  const Value* optional_value() const { return std::get<OptionalRep>(rep_).v.get(); }
  const std::string& error_message() const { return *std::get<ErrorRep>(rep_).message; }
  const Opaque& as_opaque() const { return *std::get<std::shared_ptr<const Opaque>>(rep_); }

 private:
  explicit Value(StringRep r) : rep_(std::move(r)) {}
  explicit Value(BytesRep r) : rep_(std::move(r)) {}
  explicit Value(OptionalRep r) : rep_(std::move(r)) {}
  explicit Value(ErrorRep r) : rep_(std::move(r)) {}

  std::variant<Null, bool, std::int64_t, std::uint64_t, double, StringRep, BytesRep, std::shared_ptr<const List>,
               std::shared_ptr<const Map>, Type, Duration, Timestamp, OptionalRep, std::shared_ptr<const Opaque>,
               ErrorRep>
      rep_;
};

struct List {
  std::vector<Value> items;
};

// A CEL map: entries in insertion order, keys int, uint, bool or string. Lookup treats numeric
// keys by value (`{1: 'a'}[1u]` and `[1.0]` find the entry), as CEL's heterogeneous equality does.
class Map {
 public:
  explicit Map(std::vector<std::pair<Value, Value>> entries, bool kubernetes_object = false);
  const std::vector<std::pair<Value, Value>>& entries() const { return entries_; }
  std::size_t size() const { return entries_.size(); }
  // The value for `key`, or nullptr.
  const Value* find(const Value& key) const;
  const Value* find(std::string_view key) const;
  // The value of field `name` in `m.name` / `has(m.name)`: the key itself, or for a Kubernetes
  // object also the property the escaped name stands for.
  const Value* select(std::string_view name) const;

 private:
  std::vector<std::pair<Value, Value>> entries_;
  bool kubernetes_object_;
  std::unordered_map<std::string_view, std::size_t> by_string_;  // views into entries_' keys
};

// CEL's name of the value's type, as type() returns it ("int", "google.protobuf.Duration", ...).
std::string type_name(const Value& v);
Type type_of(const Value& v);

// CEL equality (`==`): heterogeneous numeric comparison by value, lists and maps element-wise,
// values of different types are unequal. An error operand is not handled here (the caller
// propagates it first).
bool equals(const Value& a, const Value& b);

// A readable rendering for messages and tests: 1, 2u, 1.5, "s", b"\x01", [1, 2], {"k": 1},
// duration("1s"), timestamp("..."), optional.of(1), error("...").
std::string debug_string(const Value& v);

}  // namespace rr::cel
