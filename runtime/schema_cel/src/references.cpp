// Variable references in a CEL AST (references.hpp).
#include "references.hpp"

#include <type_traits>

namespace rr::schema::detail {

bool references(const rr::cel::Expr& expr, std::string_view name) {
  using namespace rr::cel;
  const auto in = [&](const ExprPtr& e) { return e != nullptr && references(*e, name); };
  return std::visit(
      [&](const auto& node) -> bool {
        using T = std::decay_t<decltype(node)>;
        if constexpr (std::is_same_v<T, IdentExpr>) {
          return node.name == name;
        } else if constexpr (std::is_same_v<T, SelectExpr>) {
          return in(node.operand);
        } else if constexpr (std::is_same_v<T, CallExpr>) {
          if (in(node.target)) return true;
          for (const auto& a : node.args)
            if (in(a)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, ListExpr>) {
          for (const auto& e : node.elements)
            if (in(e)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, MapExpr>) {
          for (const auto& entry : node.entries)
            if (in(entry.key) || in(entry.value)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, StructExpr>) {
          for (const auto& f : node.fields)
            if (in(f.value)) return true;
          return false;
        } else if constexpr (std::is_same_v<T, ComprehensionExpr>) {
          return in(node.range) || in(node.predicate) || in(node.transform);
        } else {
          return false;  // a constant
        }
      },
      expr.node);
}

}  // namespace rr::schema::detail
