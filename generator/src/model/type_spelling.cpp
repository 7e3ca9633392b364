#include "model/type_spelling.hpp"

namespace rrgen {

std::string cpp_value_type(const TypeRef& t, const std::string& scope_ns) {
  const bool local = !scope_ns.empty();
  switch (t.kind) {
    case TypeKind::String: return "std::string";
    case TypeKind::Bool: return "bool";
    case TypeKind::Int32: return "std::int32_t";
    case TypeKind::Int64: return "std::int64_t";
    case TypeKind::Double: return "double";
    case TypeKind::Time: return "rr::Time";
    case TypeKind::Bytes: return "rr::Bytes";
    case TypeKind::IntOrString: return "rr::IntOrString";
    case TypeKind::Quantity: return "rr::Quantity";
    case TypeKind::Json: return "rr::Json";
    case TypeKind::Struct: {
      const std::string name = local && t.def->unit->ns == scope_ns ? t.def->name : t.def->qualified;
      return t.boxed ? "rr::Box<" + name + ">" : name;
    }
    case TypeKind::Enum: return "rr::OpenEnum<" + (local ? t.en->name : t.en->qualified) + ">";
    case TypeKind::External: return t.external;
    case TypeKind::Array: return "std::vector<" + cpp_element_type(*t.element, scope_ns) + ">";
    case TypeKind::Map: return "std::map<std::string, " + cpp_element_type(*t.element, scope_ns) + ">";
    case TypeKind::JsonText: return "std::string";
  }
  return "rr::Json";
}

std::string cpp_element_type(const TypeRef& t, const std::string& scope_ns) {
  return t.nullable ? "rr::Nullable<" + cpp_value_type(t, scope_ns) + ">" : cpp_value_type(t, scope_ns);
}

}  // namespace rrgen
