// The CEL parser: source text -> AST (ast.hpp), macros expanded, with located syntax errors.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "rr/cel/ast.hpp"

namespace rr::cel {

struct ParseOptions {
  bool macros = true;                     // expand has/all/exists/... (cel-go's default)
  std::size_t max_recursion_depth = 250;  // nesting of parentheses, calls, lists, ...
  std::size_t max_source_size = 100000;   // code points, cel-go's default limit
  std::string description = "<input>";    // the name messages give the source
};

// One problem, located at a byte offset of the source.
struct SourceError {
  std::size_t offset = 0;
  std::size_t line = 1;    // 1-based
  std::size_t column = 1;  // 1-based, in code points
  std::string message;     // "Syntax error: ..."
};

struct ParseResult {
  ExprPtr expr;  // null when there are errors
  std::vector<SourceError> errors;
  // cel-go's rendering of the errors: "ERROR: <input>:1:5: Syntax error: ...", then the source
  // line and a caret under the column, for each error.
  std::string error_text;
  bool ok() const { return expr != nullptr; }
};

ParseResult parse(std::string_view source, const ParseOptions& options = {});

// A message located at a byte offset of the source (line and column computed).
SourceError source_error(std::string_view source, std::size_t offset, std::string message);

// The rendering ParseResult::error_text uses, for any located message over the same source.
std::string format_errors(std::string_view source, const std::vector<SourceError>& errors,
                          const std::string& description = "<input>");

}  // namespace rr::cel
