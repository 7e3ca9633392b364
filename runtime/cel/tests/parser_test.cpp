// The parser: the AST it builds, macro expansion, and syntax errors located with line, column and
// a caret line as cel-go prints them.
#include <doctest/doctest.h>

#include "rr/cel/parser.hpp"

using namespace rr::cel;

namespace {

std::string errors_of(std::string_view source) {
  const ParseResult r = parse(source);
  REQUIRE_FALSE(r.ok());
  return r.error_text;
}

}  // namespace

TEST_CASE("operators parse with CEL's precedence") {
  const ParseResult r = parse("a + b * c == d || !e && f");
  REQUIRE(r.ok());
  const auto* top = std::get_if<CallExpr>(&r.expr->node);
  REQUIRE(top != nullptr);
  CHECK(top->function == "_||_");
  const auto* eq = std::get_if<CallExpr>(&top->args[0]->node);
  REQUIRE(eq != nullptr);
  CHECK(eq->function == "_==_");
  const auto* plus = std::get_if<CallExpr>(&eq->args[0]->node);
  REQUIRE(plus != nullptr);
  CHECK(plus->function == "_+_");
  const auto* times = std::get_if<CallExpr>(&plus->args[1]->node);
  REQUIRE(times != nullptr);
  CHECK(times->function == "_*_");
  const auto* conj = std::get_if<CallExpr>(&top->args[1]->node);
  REQUIRE(conj != nullptr);
  CHECK(conj->function == "_&&_");
}

TEST_CASE("nodes carry their source offsets and unique ids") {
  const ParseResult r = parse("x.y");
  REQUIRE(r.ok());
  const auto* sel = std::get_if<SelectExpr>(&r.expr->node);
  REQUIRE(sel != nullptr);
  CHECK(sel->field == "y");
  CHECK(r.expr->offset == 1);
  CHECK(sel->operand->offset == 0);
  CHECK(sel->operand->id != r.expr->id);
}

TEST_CASE("macros expand at parse time, and only with macros enabled") {
  const ParseResult all = parse("self.all(x, x > 0)");
  REQUIRE(all.ok());
  const auto* c = std::get_if<ComprehensionExpr>(&all.expr->node);
  REQUIRE(c != nullptr);
  CHECK(c->macro == MacroKind::All);
  CHECK(c->var == "x");
  CHECK(c->var2.empty());

  const ParseResult two = parse("m.transformMap(k, v, v > 1, v * 2)");
  REQUIRE(two.ok());
  const auto* t = std::get_if<ComprehensionExpr>(&two.expr->node);
  REQUIRE(t != nullptr);
  CHECK(t->macro == MacroKind::TransformMap);
  CHECK(t->var2 == "v");
  CHECK(t->predicate != nullptr);
  CHECK(t->transform != nullptr);

  const ParseResult has = parse("has(a.b)");
  REQUIRE(has.ok());
  const auto* s = std::get_if<SelectExpr>(&has.expr->node);
  REQUIRE(s != nullptr);
  CHECK(s->test_only);

  ParseOptions off;
  off.macros = false;
  const ParseResult plain = parse("self.all(x, x > 0)", off);
  REQUIRE(plain.ok());
  CHECK(std::get_if<CallExpr>(&plain.expr->node) != nullptr);
}

TEST_CASE("syntax errors name the line and column with a caret line") {
  CHECK(errors_of("a +") ==
        "ERROR: <input>:1:4: Syntax error: mismatched input '<EOF>' expecting an expression\n | a +\n | ...^");
  CHECK(errors_of("1 +\n  )") ==
        "ERROR: <input>:2:3: Syntax error: mismatched input ')' expecting an expression\n |   )\n | ..^");
  // Columns count code points, not bytes.
  CHECK(errors_of("'ü' + #").find("<input>:1:7:") != std::string::npos);
}

TEST_CASE("macro misuse is a located error") {
  CHECK(errors_of("has(a)") ==
        "ERROR: <input>:1:5: Syntax error: invalid argument to has() macro\n | has(a)\n | ....^");
  CHECK(errors_of("[1].all(1, true)").find("<input>:1:9: Syntax error: argument must be a simple name") !=
        std::string::npos);
}

TEST_CASE("reserved words are not identifiers but may be field names") {
  CHECK(errors_of("while").find("reserved identifier: while") != std::string::npos);
  CHECK(parse("a.while").ok());
  CHECK(parse("{'if': 1}.if").ok());
}

TEST_CASE("literals: out-of-range ints and bad escapes are errors") {
  CHECK(parse("-9223372036854775808").ok());
  CHECK(errors_of("9223372036854775808").find("invalid int literal") != std::string::npos);
  CHECK(errors_of("'\\q'").find("invalid escape sequence") != std::string::npos);
  CHECK(errors_of("'abc").find("unterminated string literal") != std::string::npos);
  CHECK(errors_of("b'\\u0041'").find("unicode escape in bytes literal") != std::string::npos);
}

TEST_CASE("deep nesting stops at the recursion limit instead of the stack") {
  const std::string deep = std::string(400, '(') + "1" + std::string(400, ')');
  CHECK(errors_of(deep).find("expression recursion limit exceeded") != std::string::npos);
  const std::string ok = std::string(100, '(') + "1" + std::string(100, ')');
  CHECK(parse(ok).ok());
}

TEST_CASE("long && and || chains are balanced; other long chains hit the limit") {
  std::string conj = "true";
  for (int i = 0; i < 10000; ++i) conj += " && true";  // 80,000 characters, under the size limit
  const ParseResult r = parse(conj);
  REQUIRE(r.ok());
  // Balanced: the root's operands are each about half of the chain, not one leaf and the rest.
  const auto* root = std::get_if<CallExpr>(&r.expr->node);
  REQUIRE(root != nullptr);
  CHECK(std::get_if<CallExpr>(&root->args[0]->node) != nullptr);
  CHECK(std::get_if<CallExpr>(&root->args[1]->node) != nullptr);

  std::string sum = "1";
  for (int i = 0; i < 300; ++i) sum += " + 1";
  CHECK(errors_of(sum).find("expression recursion limit exceeded") != std::string::npos);
  std::string select = "a";
  for (int i = 0; i < 300; ++i) select += ".b";
  CHECK(errors_of(select).find("expression recursion limit exceeded") != std::string::npos);
}
