// CelType (types.hpp).
#include "rr/cel/types.hpp"

namespace rr::cel {

CelType CelType::list(CelType elem) {
  CelType t(Kind::List);
  t.params_.push_back(std::move(elem));
  return t;
}

CelType CelType::map(CelType key, CelType value) {
  CelType t(Kind::Map);
  t.params_.push_back(std::move(key));
  t.params_.push_back(std::move(value));
  return t;
}

CelType CelType::optional(CelType value) {
  CelType t(Kind::Optional);
  t.params_.push_back(std::move(value));
  return t;
}

CelType CelType::opaque(std::string name) {
  CelType t(Kind::Opaque);
  t.name_ = std::move(name);
  return t;
}

CelType CelType::object(std::string name, std::map<std::string, CelType> fields) {
  CelType t(Kind::Object);
  t.name_ = std::move(name);
  t.fields_ = std::make_shared<const std::map<std::string, CelType>>(std::move(fields));
  return t;
}

std::string CelType::to_string() const {
  switch (kind_) {
    case Kind::Dyn: return "dyn";
    case Kind::Null: return "null_type";
    case Kind::Bool: return "bool";
    case Kind::Int: return "int";
    case Kind::Uint: return "uint";
    case Kind::Double: return "double";
    case Kind::String: return "string";
    case Kind::Bytes: return "bytes";
    case Kind::Duration: return "google.protobuf.Duration";
    case Kind::Timestamp: return "google.protobuf.Timestamp";
    case Kind::List: return "list(" + elem().to_string() + ")";
    case Kind::Map: return "map(" + key().to_string() + ", " + elem().to_string() + ")";
    case Kind::Type: return "type";
    case Kind::Optional: return "optional_type(" + elem().to_string() + ")";
    case Kind::Opaque:
    case Kind::Object: return name_;
  }
  return "dyn";
}

bool operator==(const CelType& a, const CelType& b) {
  if (a.kind_ != b.kind_ || a.name_ != b.name_ || a.params_ != b.params_) return false;
  if (a.fields_ == b.fields_) return true;
  return a.fields_ && b.fields_ && *a.fields_ == *b.fields_;
}

}  // namespace rr::cel
