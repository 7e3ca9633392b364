// The type checker (type_check.hpp).
#include "type_check.hpp"

#include <algorithm>

#include "functions.hpp"
#include "lexer.hpp"
#include "nodes.hpp"

namespace rr::cel {

namespace {

using K = CelType::Kind;

bool is_dyn(const CelType& t) { return t.kind() == K::Dyn; }

// Whether a value of one type may be compared with (or stand where one expects) the other: equal
// up to dyn, anywhere in the type.
bool compatible(const CelType& a, const CelType& b) {
  if (is_dyn(a) || is_dyn(b)) return true;
  if (a.kind() == K::Null || b.kind() == K::Null) return true;  // null is the "absent" of every reference type
  if (a.kind() != b.kind()) return false;
  switch (a.kind()) {
    case K::List:
    case K::Optional: return compatible(a.elem(), b.elem());
    case K::Map: return compatible(a.key(), b.key()) && compatible(a.elem(), b.elem());
    case K::Opaque:
    case K::Object: return a.name() == b.name();
    default: return true;
  }
}

// The element type of `[]`, the entries' of `{}` and the value's of `optional.none()`: a type
// parameter nothing has bound yet (cel-go's free type variable). Only literals and the branches of
// `_?_:_` see it, where joining binds it to the other side; everywhere else it is dyn (bound()).
const CelType& free_type() {
  static const CelType kFree = CelType::opaque("@free");
  return kFree;
}

bool is_free(const CelType& t) { return t.kind() == K::Opaque && t.name() == "@free"; }

bool has_free(const CelType& t) {
  switch (t.kind()) {
    case K::List:
    case K::Optional: return has_free(t.elem());
    case K::Map: return has_free(t.key()) || has_free(t.elem());
    default: return is_free(t);
  }
}

// `t` with its unbound type parameters as dyn (cel-go's substitution of free variables at the end).
CelType bound(const CelType& t) {
  switch (t.kind()) {
    case K::List: return CelType::list(bound(t.elem()));
    case K::Optional: return CelType::optional(bound(t.elem()));
    case K::Map: return CelType::map(bound(t.key()), bound(t.elem()));
    default: return is_free(t) ? CelType::dyn() : t;
  }
}

// The type two branches or elements share: the same type, the non-null side beside null, the
// bound side beside an unbound parameter, else the more general (an explicit dyn wins).
CelType join(const CelType& a, const CelType& b) {
  if (a == b) return a;
  if (is_free(a)) return b;
  if (is_free(b)) return a;
  if (a.kind() == K::Null) return b;
  if (b.kind() == K::Null) return a;
  if (a.kind() == b.kind() && a.kind() == K::List) return CelType::list(join(a.elem(), b.elem()));
  if (a.kind() == b.kind() && a.kind() == K::Optional) return CelType::optional(join(a.elem(), b.elem()));
  if (a.kind() == b.kind() && a.kind() == K::Map) return CelType::map(join(a.key(), b.key()), join(a.elem(), b.elem()));
  return CelType::dyn();
}

CelType type_of_value(const Value& v) {
  switch (v.kind()) {
    case Kind::Null: return CelType::null_type();
    case Kind::Bool: return CelType::bool_type();
    case Kind::Int: return CelType::int_type();
    case Kind::Uint: return CelType::uint_type();
    case Kind::Double: return CelType::double_type();
    case Kind::String: return CelType::string_type();
    case Kind::Bytes: return CelType::bytes_type();
    case Kind::Duration: return CelType::duration();
    case Kind::Timestamp: return CelType::timestamp();
    case Kind::Type: return CelType::type_type();
    case Kind::List: {
      const auto& items = v.as_list().items;
      return CelType::list(items.empty() ? CelType::dyn() : type_of_value(items.front()));
    }
    case Kind::Map: {
      const auto& entries = v.as_map().entries();
      if (entries.empty()) return CelType::map(CelType::dyn(), CelType::dyn());
      return CelType::map(type_of_value(entries.front().first), type_of_value(entries.front().second));
    }
    case Kind::Optional:
      return CelType::optional(v.optional_value() ? type_of_value(*v.optional_value()) : CelType::dyn());
    case Kind::Opaque: return CelType::opaque(v.as_opaque().type_name());
    case Kind::Error: return CelType::dyn();
  }
  return CelType::dyn();
}

// A value of the type to run an implementation on, or nullopt where none can stand for the type.
std::optional<Value> sample(const CelType& t) {
  switch (t.kind()) {
    case K::Null: return Value();
    case K::Bool: return Value(true);
    case K::Int: return Value(std::int64_t{1});
    case K::Uint: return Value(std::uint64_t{1});
    case K::Double: return Value(1.0);
    case K::String: return Value("a");
    case K::Bytes: return Value::bytes("a");
    case K::Duration: return Value(Duration{1, 0});
    case K::Timestamp: return Value(Timestamp{1, 0});
    case K::Type: return Value(Type{"int"});
    case K::List: {
      if (is_dyn(t.elem())) return Value::list({});
      auto e = sample(t.elem());
      if (!e) return std::nullopt;
      return Value::list({*e});
    }
    case K::Map: {
      if (is_dyn(t.key()) || is_dyn(t.elem())) return Value::map({});
      auto k = sample(t.key());
      auto v = sample(t.elem());
      if (!k || !v) return std::nullopt;
      return Value::map({{*k, *v}});
    }
    case K::Optional: {
      if (is_dyn(t.elem())) return Value::optional_none();
      auto e = sample(t.elem());
      if (!e) return std::nullopt;
      return Value::optional_of(*e);
    }
    case K::Object: return Value::object({});  // a schema object is a map at run time
    default: return std::nullopt;
  }
}

// Result types that do not depend on the sample (conversions, constructors of library types).
std::optional<CelType> fixed_result(const std::string& fn) {
  static const std::map<std::string, CelType, std::less<>> kFixed = {
      {"int", CelType::int_type()},
      {"uint", CelType::uint_type()},
      {"double", CelType::double_type()},
      {"string", CelType::string_type()},
      {"bytes", CelType::bytes_type()},
      {"bool", CelType::bool_type()},
      {"duration", CelType::duration()},
      {"timestamp", CelType::timestamp()},
      {"type", CelType::type_type()},
      {"dyn", CelType::dyn()},
      {"quantity", CelType::opaque("kubernetes.Quantity")},
      {"url", CelType::opaque("kubernetes.URL")},
      {"ip", CelType::opaque("net.IP")},
      {"cidr", CelType::opaque("net.CIDR")},
      {"semver", CelType::opaque("kubernetes.Semver")},
      // Orderings and size are bool and int whatever their operands, dyn ones included.
      {"_<_", CelType::bool_type()},
      {"_<=_", CelType::bool_type()},
      {"_>_", CelType::bool_type()},
      {"_>=_", CelType::bool_type()},
      {"size", CelType::int_type()},
  };
  const auto it = kFixed.find(fn);
  if (it == kFixed.end()) return std::nullopt;
  return it->second;
}

class TypeChecker {
 public:
  explicit TypeChecker(const CompileOptions& options) : options_(options), functions_(standard_functions()) {}

  CelType infer(const Expr& e) {
    CelType t = infer_raw(e);
    if (has_free(t)) t = bound(t);
    return t;
  }

  // The node's type with its unbound type parameters left free, for the literals and branches
  // that join it with their other parts; the node's recorded type has them as dyn.
  CelType infer_raw(const Expr& e) {
    CelType t = std::visit([&](const auto& node) { return infer_node(e, node); }, e.node);
    if (has_free(t)) node_types.insert_or_assign(e.id, bound(t));
    else node_types.insert_or_assign(e.id, t);  // a copy: the caller takes t
    return t;
  }

  std::vector<CheckIssue> issues;
  NodeTypes node_types;

 private:
  void error(std::size_t offset, std::string message) { issues.push_back({offset, std::move(message)}); }

  std::string signature(const std::vector<CelType>& types) const {
    std::string out;
    for (const auto& t : types) out += (out.empty() ? "" : ", ") + t.to_string();
    return "(" + out + ")";
  }

  void no_overload(std::size_t offset, const std::string& fn, const std::vector<CelType>& types) {
    error(offset, "found no matching overload for '" + fn + "' applied to '" + signature(types) + "'");
  }

  const CelType* local(const std::string& name) const {
    for (auto it = scope_.rbegin(); it != scope_.rend(); ++it)
      if (it->first == name) return &it->second;
    return nullptr;
  }

  const CelType* declared(const std::string& name) const {
    const auto it = options_.declarations.find(name);
    return it == options_.declarations.end() ? nullptr : &it->second;
  }

  CelType infer_node(const Expr&, const ConstantExpr& c) { return type_of_value(c.value); }

  CelType infer_node(const Expr&, const IdentExpr& id) {
    if (const CelType* t = local(id.name)) return *t;
    std::string name = id.name;
    if (!name.empty() && name[0] == '.') name.erase(0, 1);
    if (const CelType* t = declared(name)) return *t;
    if (type_value(name) != nullptr) return CelType::type_type();
    return CelType::dyn();
  }

  // The type of `t.field` (or nullopt after reporting why there is none).
  std::optional<CelType> field_type(std::size_t offset, const CelType& t, const std::string& field) {
    switch (t.kind()) {
      case K::Dyn: return CelType::dyn();
      case K::Map: return t.elem();
      case K::Optional: {
        auto inner = field_type(offset, t.elem(), field);
        if (!inner) return std::nullopt;
        return CelType::optional(*inner);
      }
      case K::Object: {
        auto it = t.fields()->find(field);
        // A property named after a reserved word is declared escaped (`__namespace__`); since 1.31
        // the API server's type provider also finds it by its own name (RecognizeKeywordAsFieldName).
        if (it == t.fields()->end() && is_reserved_word(field)) it = t.fields()->find("__" + field + "__");
        if (it == t.fields()->end()) {
          error(offset, "undefined field '" + field + "'");
          return std::nullopt;
        }
        return it->second;
      }
      default: error(offset, "type '" + t.to_string() + "' does not support field selection"); return std::nullopt;
    }
  }

  CelType infer_node(const Expr& e, const SelectExpr& s) {
    // A qualified name declared as such (`a.b` with a.b declared).
    if (!s.test_only && !s.optional) {
      std::string qualified = s.field;
      const Expr* cur = s.operand.get();
      while (const auto* sel = std::get_if<SelectExpr>(&cur->node)) {
        if (sel->test_only || sel->optional) break;
        qualified = sel->field + "." + qualified;
        cur = sel->operand.get();
      }
      if (const auto* id = std::get_if<IdentExpr>(&cur->node); id != nullptr && !local(id->name)) {
        if (const CelType* t = declared(id->name + "." + qualified)) return *t;
      }
    }
    const CelType operand = infer(*s.operand);
    const auto t = field_type(e.offset, operand, s.field);
    if (s.test_only) return CelType::bool_type();
    if (!t) return CelType::dyn();
    if (s.optional && t->kind() != K::Optional) return CelType::optional(*t);
    return *t;
  }

  CelType index_type(std::size_t offset, const CelType& container, const CelType& index, const Expr& index_expr,
                     const char* fn) {
    switch (container.kind()) {
      case K::Dyn: return CelType::dyn();
      case K::List:
        if (!is_dyn(index) && index.kind() != K::Int && index.kind() != K::Uint && index.kind() != K::Double) break;
        return container.elem();
      case K::Map:
        if (!compatible(container.key(), index) && !(is_numeric_type(container.key()) && is_numeric_type(index))) break;
        return container.elem();
      case K::Object: {
        const auto* c = std::get_if<ConstantExpr>(&index_expr.node);
        if (c != nullptr && c->value.kind() == Kind::String) {
          const auto t = field_type(offset, container, c->value.as_string());
          return t ? *t : CelType::dyn();
        }
        return CelType::dyn();
      }
      case K::Optional: return CelType::optional(index_type(offset, container.elem(), index, index_expr, fn));
      default: break;
    }
    no_overload(offset, fn, {container, index});
    return CelType::dyn();
  }

  static bool is_numeric_type(const CelType& t) {
    return t.kind() == K::Int || t.kind() == K::Uint || t.kind() == K::Double;
  }

  CelType infer_node(const Expr& e, const CallExpr& c) {
    std::vector<CelType> args;
    if (c.target) args.push_back(infer_raw(*c.target));
    for (const auto& a : c.args) args.push_back(infer_raw(*a));
    // The arguments as written (`raw`, kept only when one has an unbound parameter) and as bound.
    std::vector<CelType> kept;
    if (std::any_of(args.begin(), args.end(), has_free)) {
      kept = args;
      for (auto& t : args) t = bound(t);
    }
    const std::vector<CelType>& raw = kept.empty() ? args : kept;
    const std::string& fn = c.function;
    if (!c.target && (fn == "_&&_" || fn == "_||_" || fn == "!_")) {
      for (const auto& t : args)
        if (!is_dyn(t) && t.kind() != K::Bool) {
          no_overload(e.offset, fn, args);
          break;
        }
      return CelType::bool_type();
    }
    if (!c.target && fn == "_?_:_") {
      if (!is_dyn(args[0]) && args[0].kind() != K::Bool) no_overload(e.offset, fn, args);
      return join(raw[1], raw[2]);
    }
    if (!c.target && (fn == "_==_" || fn == "_!=_")) {
      if (!compatible(args[0], args[1])) no_overload(e.offset, fn, args);
      return CelType::bool_type();
    }
    if (!c.target && (fn == "_[_]" || fn == "_[?_]")) {
      const CelType t = index_type(e.offset, args[0], args[1], *c.args[1], fn.c_str());
      if (fn == "_[?_]" && t.kind() != K::Optional) return CelType::optional(t);
      return t;
    }
    if (!c.target && fn == "@in") {
      if (args[1].kind() == K::List || args[1].kind() == K::Map || is_dyn(args[1])) return CelType::bool_type();
      no_overload(e.offset, fn, args);
      return CelType::bool_type();
    }
    // Qualified global functions (optional.of, math.greatest, ...) were called with a target.
    const Function* f = nullptr;
    std::string name = fn;
    std::vector<CelType> call_args = args;
    if (c.target) {
      if (const auto q = qualified(*c.target)) {
        const Function* g = functions_.find(*q + "." + fn);
        if (g != nullptr && g->global) {
          f = g;
          name = *q + "." + fn;
          call_args.erase(call_args.begin());
        }
      }
      if (f == nullptr) {
        f = functions_.find(fn);
        if (f != nullptr && !f->member) f = nullptr;
      }
    } else {
      if (!name.empty() && name[0] == '.') name.erase(0, 1);
      f = functions_.find(name);
      if (f != nullptr && !f->global) f = nullptr;
    }
    const auto fixed = fixed_result(name);
    if (f == nullptr) return fixed ? *fixed : CelType::dyn();  // the name check reports unknown functions
    // optional(T) of its argument's own type (a sample would lose an explicit dyn); none is unbound.
    if (name == "optional.none" && call_args.empty()) return CelType::optional(free_type());
    if ((name == "optional.of" || name == "optional.ofNonZeroValue") && call_args.size() == 1)
      return CelType::optional(raw.back());
    if (name == "math.greatest" || name == "math.least") {
      // The result is one of the arguments: their common type, dyn when they differ.
      if (call_args.size() == 1 && call_args[0].kind() == K::List) return call_args[0].elem();
      CelType common = call_args.empty() ? CelType::dyn() : call_args[0];
      for (const auto& t : call_args) common = join(common, t);
      return common;
    }
    std::vector<Value> samples;
    for (const auto& t : call_args) {
      auto s = sample(t);
      if (!s) return fixed ? *fixed : CelType::dyn();
      samples.push_back(std::move(*s));
    }
    const Value result = f->impl(samples);
    if (result.is_error()) {
      if (result.error_message().starts_with("no matching overload")) no_overload(e.offset, name, call_args);
      return fixed ? *fixed : CelType::dyn();
    }
    return fixed ? *fixed : type_of_value(result);
  }

  std::optional<std::string> qualified(const Expr& e) const {
    if (const auto* id = std::get_if<IdentExpr>(&e.node)) {
      if (local(id->name)) return std::nullopt;
      std::string n = id->name;
      if (!n.empty() && n[0] == '.') n.erase(0, 1);
      return n;
    }
    if (const auto* sel = std::get_if<SelectExpr>(&e.node); sel != nullptr && !sel->test_only && !sel->optional) {
      const auto base = qualified(*sel->operand);
      if (base) return *base + "." + sel->field;
    }
    return std::nullopt;
  }

  CelType infer_node(const Expr&, const ListExpr& l) {
    std::optional<CelType> elem;
    for (std::size_t i = 0; i < l.elements.size(); ++i) {
      CelType t = infer_raw(*l.elements[i]);
      if (l.optional[i]) t = t.kind() == K::Optional ? t.elem() : CelType::dyn();
      elem = elem ? join(*elem, t) : t;
    }
    return CelType::list(elem ? *elem : free_type());
  }

  CelType infer_node(const Expr&, const MapExpr& m) {
    std::optional<CelType> key, value;
    for (const auto& entry : m.entries) {
      const CelType k = infer_raw(*entry.key);
      CelType v = infer_raw(*entry.value);
      if (entry.optional) v = v.kind() == K::Optional ? v.elem() : CelType::dyn();
      key = key ? join(*key, k) : k;
      value = value ? join(*value, v) : v;
    }
    return CelType::map(key ? *key : free_type(), value ? *value : free_type());
  }

  CelType infer_node(const Expr&, const StructExpr& s) {
    for (const auto& f : s.fields) infer(*f.value);
    return CelType::dyn();
  }

  CelType infer_node(const Expr& e, const ComprehensionExpr& c) {
    const CelType range = infer(*c.range);
    const bool two = !c.var2.empty();
    CelType var = CelType::dyn(), var2 = CelType::dyn();
    switch (c.macro) {
      case MacroKind::Bind: var = range; break;
      case MacroKind::OptMap:
      case MacroKind::OptFlatMap:
        if (range.kind() == K::Optional) var = range.elem();
        else if (!is_dyn(range)) no_overload(e.offset, c.macro == MacroKind::OptMap ? "optMap" : "optFlatMap", {range});
        break;
      default:
        if (range.kind() == K::List) {
          var = two ? CelType::int_type() : range.elem();
          var2 = range.elem();
        } else if (range.kind() == K::Map) {
          var = range.key();
          var2 = range.elem();
        } else if (!is_dyn(range)) {
          error(e.offset, "expression of type '" + range.to_string() +
                              "' cannot be range of a comprehension (must be list, map, or dynamic)");
        }
    }
    const std::size_t depth = scope_.size();
    scope_.emplace_back(c.var, var);
    if (two) scope_.emplace_back(c.var2, var2);
    std::optional<CelType> predicate, transform;
    if (c.predicate) {
      predicate = infer(*c.predicate);
      if (!is_dyn(*predicate) && predicate->kind() != K::Bool)
        error(c.predicate->offset,
              "found no matching overload: the condition is " + predicate->to_string() + ", not bool");
    }
    if (c.transform) transform = infer(*c.transform);
    scope_.resize(depth);
    switch (c.macro) {
      case MacroKind::All:
      case MacroKind::Exists:
      case MacroKind::ExistsOne: return CelType::bool_type();
      case MacroKind::Map:
      case MacroKind::TransformList: return CelType::list(*transform);
      case MacroKind::Filter: return CelType::list(var);
      case MacroKind::TransformMap: return CelType::map(var, *transform);
      case MacroKind::TransformMapEntry:
        return transform->kind() == K::Map ? *transform : CelType::map(CelType::dyn(), CelType::dyn());
      case MacroKind::OptMap: return CelType::optional(*transform);
      case MacroKind::OptFlatMap:
      case MacroKind::Bind: return *transform;
      case MacroKind::SortBy: return range;
    }
    return CelType::dyn();
  }

  const CompileOptions& options_;
  const FunctionTable& functions_;
  std::vector<std::pair<std::string, CelType>> scope_;
};

}  // namespace

TypeCheckResult check_types(const Expr& expr, const CompileOptions& options) {
  TypeChecker checker(options);
  TypeCheckResult result;
  result.type = checker.infer(expr);
  result.issues = std::move(checker.issues);
  result.node_types = std::move(checker.node_types);
  return result;
}

}  // namespace rr::cel
