// Macro expansion (macros.hpp).
#include "macros.hpp"

namespace rr::cel {

namespace {

const std::string* simple_name(const ExprPtr& e) {
  if (const auto* id = std::get_if<IdentExpr>(&e->node)) return &id->name;
  return nullptr;
}

struct MacroSpec {
  const char* name;
  std::size_t argc;  // including the variables
  MacroKind kind;
  int vars;            // 1 or 2
  bool has_predicate;  // the argument after the variables is a condition
  bool has_transform;  // the last argument is the per-element result
};

constexpr MacroSpec kMacros[] = {
    {"all", 2, MacroKind::All, 1, true, false},
    {"all", 3, MacroKind::All, 2, true, false},
    {"exists", 2, MacroKind::Exists, 1, true, false},
    {"exists", 3, MacroKind::Exists, 2, true, false},
    {"exists_one", 2, MacroKind::ExistsOne, 1, true, false},
    {"existsOne", 2, MacroKind::ExistsOne, 1, true, false},
    {"existsOne", 3, MacroKind::ExistsOne, 2, true, false},
    {"map", 2, MacroKind::Map, 1, false, true},
    {"map", 3, MacroKind::Map, 1, true, true},
    {"filter", 2, MacroKind::Filter, 1, true, false},
    {"transformList", 3, MacroKind::TransformList, 2, false, true},
    {"transformList", 4, MacroKind::TransformList, 2, true, true},
    {"transformMap", 3, MacroKind::TransformMap, 2, false, true},
    {"transformMap", 4, MacroKind::TransformMap, 2, true, true},
    {"transformMapEntry", 3, MacroKind::TransformMapEntry, 2, false, true},
    {"transformMapEntry", 4, MacroKind::TransformMapEntry, 2, true, true},
    {"optMap", 2, MacroKind::OptMap, 1, false, true},
    {"optFlatMap", 2, MacroKind::OptFlatMap, 1, false, true},
    {"sortBy", 2, MacroKind::SortBy, 1, false, true},
};

}  // namespace

std::optional<ExprPtr> expand_macro(ExprPtr& target, const std::string& function, std::vector<ExprPtr>& args,
                                    std::size_t offset, const std::function<std::int64_t()>& next_id,
                                    std::optional<MacroError>& error) {
  if (!target) {
    if (function != "has" || args.size() != 1) return std::nullopt;
    auto* sel = std::get_if<SelectExpr>(&args[0]->node);
    if (sel == nullptr || sel->optional) {
      error = MacroError{args[0]->offset, "invalid argument to has() macro"};
      return std::nullopt;
    }
    sel->test_only = true;
    return std::move(args[0]);
  }
  if (const auto* ns = std::get_if<IdentExpr>(&target->node); ns != nullptr && ns->name == "cel") {
    if (function != "bind" || args.size() != 3) return std::nullopt;
    const std::string* var = simple_name(args[0]);
    if (var == nullptr) {
      error = MacroError{args[0]->offset, "cel.bind() variable must be a simple identifier"};
      return std::nullopt;
    }
    ComprehensionExpr c;
    c.macro = MacroKind::Bind;
    c.var = *var;
    c.range = std::move(args[1]);
    c.transform = std::move(args[2]);
    auto out = std::make_unique<Expr>();
    out->id = next_id();
    out->offset = offset;
    out->node = std::move(c);
    return out;
  }
  for (const auto& spec : kMacros) {
    if (function != spec.name || args.size() != spec.argc) continue;
    const std::string* v1 = simple_name(args[0]);
    const std::string* v2 = spec.vars == 2 ? simple_name(args[1]) : nullptr;
    if (v1 == nullptr || (spec.vars == 2 && v2 == nullptr)) {
      error = MacroError{args[v1 == nullptr ? 0 : 1]->offset, "argument must be a simple name"};
      return std::nullopt;
    }
    if (*v1 == "@result" || (v2 != nullptr && (*v2 == "@result" || *v2 == *v1))) {
      error = MacroError{args[0]->offset, v2 != nullptr && *v2 == *v1
                                              ? "duplicate variable name: " + *v1
                                              : "iteration variable overwrites accumulator variable"};
      return std::nullopt;
    }
    ComprehensionExpr c;
    c.macro = spec.kind;
    c.var = *v1;
    if (v2 != nullptr) c.var2 = *v2;
    const auto first = static_cast<std::size_t>(spec.vars);
    if (spec.has_predicate) c.predicate = std::move(args[first]);
    if (spec.has_transform) c.transform = std::move(args.back());
    c.range = std::move(target);
    auto out = std::make_unique<Expr>();
    out->id = next_id();
    out->offset = offset;
    out->node = std::move(c);
    return out;
  }
  return std::nullopt;
}

}  // namespace rr::cel
