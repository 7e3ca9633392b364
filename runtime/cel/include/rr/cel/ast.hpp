// The CEL abstract syntax tree the parser produces: each node has an id, unique within one parse,
// and the byte offset in the source where it starts (for messages with line and column).
// Operators are calls of CEL's internal function names (`_+_`, `_[_]`, `!_`, `_&&_`, `_?_:_`,
// `@in`, `_[?_]` ...), as cel-go's AST has them. Macros are expanded at parse time into
// Comprehension nodes that name the macro they came from.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

#include "rr/cel/value.hpp"

namespace rr::cel {

struct Expr;
using ExprPtr = std::unique_ptr<Expr>;

struct ConstantExpr {
  Value value;
};

// A name: a variable, a comprehension variable, a type name (`int`) or the first part of a
// qualified name. A leading dot (`.x`, the root scope) is kept in `name`.
struct IdentExpr {
  std::string name;
};

// operand.field; `has(operand.field)` sets test_only, `operand.?field` sets optional.
struct SelectExpr {
  ExprPtr operand;
  std::string field;
  bool test_only = false;
  bool optional = false;
};

// function(args...) or target.function(args...).
struct CallExpr {
  ExprPtr target;  // null for a global call
  std::string function;
  std::vector<ExprPtr> args;
};

struct ListExpr {
  std::vector<ExprPtr> elements;
  std::vector<bool> optional;  // `[?x]`: element i is added only when the optional has a value
};

struct MapEntry {
  ExprPtr key;
  ExprPtr value;
  bool optional = false;  // `{?k: v}`
};

struct MapExpr {
  std::vector<MapEntry> entries;
};

struct FieldInit {
  std::string field;
  ExprPtr value;
  bool optional = false;
};

// Message construction `pkg.Name{field: value}`: parsed for completeness; this implementation
// has no protobuf message types, so evaluating one is an error.
struct StructExpr {
  std::string message_name;
  std::vector<FieldInit> fields;
};

// The macros, expanded: iteration over `range` (a list's elements or indices and elements, a map's
// keys or keys and values) with one or two variables; for optMap/optFlatMap, `range` is the optional.
enum class MacroKind : std::uint8_t {
  All,                // all(x, p) / all(k, v, p)
  Exists,             // exists(x, p) / exists(k, v, p)
  ExistsOne,          // exists_one(x, p) / existsOne(x, p) / existsOne(k, v, p)
  Map,                // map(x, f) / map(x, p, f)
  Filter,             // filter(x, p)
  TransformList,      // transformList(i, v, [p,] f)
  TransformMap,       // transformMap(k, v, [p,] f)
  TransformMapEntry,  // transformMapEntry(k, v, [p,] f)
  OptMap,             // opt.optMap(x, f): optional.of(f) when opt has a value
  OptFlatMap,         // opt.optFlatMap(x, f): f (an optional) when opt has a value
  Bind,               // cel.bind(x, init, f): f with x bound to init (range holds init)
  SortBy,             // list.sortBy(x, key): the list ordered by key (lists extension)
};

struct ComprehensionExpr {
  MacroKind macro;
  std::string var;   // the element (one variable) or the index/key (two variables)
  std::string var2;  // the value, or empty with one variable
  ExprPtr range;
  ExprPtr predicate;  // the condition; null for map(x, f) and transforms without a filter
  ExprPtr transform;  // the result per element for Map and the transforms; null otherwise
};

struct Expr {
  std::int64_t id = 0;
  std::size_t offset = 0;
  std::variant<ConstantExpr, IdentExpr, SelectExpr, CallExpr, ListExpr, MapExpr, StructExpr, ComprehensionExpr> node;
};

}  // namespace rr::cel
