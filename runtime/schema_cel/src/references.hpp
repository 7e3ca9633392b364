// Whether a CEL expression names a variable: a rule that names oldSelf is a transition rule.
#pragma once
#include <string_view>

#include "rr/cel/ast.hpp"

namespace rr::schema::detail {

bool references(const rr::cel::Expr& expr, std::string_view name);

}  // namespace rr::schema::detail
