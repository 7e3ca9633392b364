// Macro expansion at parse time: has(), all, exists, exists_one, map, filter and the
// two-variable comprehensions (all, exists, existsOne, transformList, transformMap,
// transformMapEntry).
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "rr/cel/ast.hpp"

namespace rr::cel {

struct MacroError {
  std::size_t offset;
  std::string message;
};

// The expansion of `target.function(args)` (target null for a global call) when it names a macro
// with that many arguments; nullopt when it is an ordinary call (args untouched). A macro called
// wrongly (`has(a)`, `all(1, x)`) sets `error`. `next_id` numbers new nodes.
std::optional<ExprPtr> expand_macro(ExprPtr& target, const std::string& function, std::vector<ExprPtr>& args,
                                    std::size_t offset, const std::function<std::int64_t()>& next_id,
                                    std::optional<MacroError>& error);

}  // namespace rr::cel
