// The function table and the helpers every family shares (functions.hpp).
#include "functions.hpp"

namespace rr::cel {

void FunctionTable::add(std::string name, FunctionImpl impl, bool global, bool member) {
  functions_[std::move(name)] = Function{impl, global, member};
}

const Function* FunctionTable::find(std::string_view name) const {
  const auto it = functions_.find(std::string(name));
  return it == functions_.end() ? nullptr : &it->second;
}

const FunctionTable& standard_functions() {
  static const FunctionTable table = [] {
    FunctionTable t;
    register_operators(t);
    register_strings(t);
    register_conversions(t);
    register_time(t);
    register_optionals(t);
    register_strings_ext(t);
    register_format(t);
    register_math(t);
    register_authz(t);
    register_encoders(t);
    register_network(t);
    register_lists(t);
    register_quantity(t);
    register_semver(t);
    register_url(t);
    register_named_formats(t);
    register_compare(t);
    return t;
  }();
  return table;
}

Value no_overload(std::string_view function, std::span<const Value> args) {
  std::string types;
  for (const auto& a : args) types += (types.empty() ? "" : ", ") + type_name(a);
  return Value::error("no matching overload for '" + std::string(function) + "' applied to '(" + types + ")'");
}

const Value* first_error(std::span<const Value> args) {
  for (const auto& a : args)
    if (a.is_error()) return &a;
  return nullptr;
}

}  // namespace rr::cel
