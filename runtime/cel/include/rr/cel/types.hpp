// CEL types for the type checker: the primitive types, list(T), map(K, V), type, optional(T), the
// library types (net.IP, ...), objects with known fields (a Kubernetes schema's properties), and
// dyn (not known until run time).
#pragma once
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace rr::cel {

class CelType {
 public:
  enum class Kind {
    Dyn,
    Null,
    Bool,
    Int,
    Uint,
    Double,
    String,
    Bytes,
    Duration,
    Timestamp,
    List,
    Map,
    Type,
    Optional,
    Opaque,
    Object
  };

  CelType() = default;
  static CelType dyn() { return CelType(Kind::Dyn); }
  static CelType null_type() { return CelType(Kind::Null); }
  static CelType bool_type() { return CelType(Kind::Bool); }
  static CelType int_type() { return CelType(Kind::Int); }
  static CelType uint_type() { return CelType(Kind::Uint); }
  static CelType double_type() { return CelType(Kind::Double); }
  static CelType string_type() { return CelType(Kind::String); }
  static CelType bytes_type() { return CelType(Kind::Bytes); }
  static CelType duration() { return CelType(Kind::Duration); }
  static CelType timestamp() { return CelType(Kind::Timestamp); }
  static CelType type_type() { return CelType(Kind::Type); }
  static CelType list(CelType elem);
  static CelType map(CelType key, CelType value);
  static CelType optional(CelType value);
  static CelType opaque(std::string name);
  // An object (a Kubernetes schema's `properties`): selecting a field it does not declare is a
  // compile error.
  static CelType object(std::string name, std::map<std::string, CelType> fields);

  Kind kind() const { return kind_; }
  // The element of a list, the value of a map or an optional; the key of a map.
  const CelType& elem() const { return params_.back(); }
  const CelType& key() const { return params_.front(); }
  const std::string& name() const { return name_; }
  const std::map<std::string, CelType>* fields() const { return fields_.get(); }

  // The most elements (list), entries (map, object) or characters/bytes (string, bytes) a value
  // of this type can have, from the schema's maxItems/maxProperties/maxLength: the cost
  // estimator's size bound. Not part of the type's identity (operator== ignores it).
  std::optional<std::uint64_t> max_size() const { return max_size_; }
  CelType with_max_size(std::optional<std::uint64_t> n) const {
    CelType t = *this;
    t.max_size_ = n;
    return t;
  }

  // cel-go's spelling: int, list(string), map(string, dyn), optional_type(int), net.IP, or the
  // object's name.
  std::string to_string() const;
  friend bool operator==(const CelType& a, const CelType& b);

 private:
  explicit CelType(Kind k) : kind_(k) {}
  Kind kind_ = Kind::Dyn;
  std::vector<CelType> params_;
  std::string name_;
  std::shared_ptr<const std::map<std::string, CelType>> fields_;
  std::optional<std::uint64_t> max_size_;
};

}  // namespace rr::cel
