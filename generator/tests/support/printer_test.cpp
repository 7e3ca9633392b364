#include "support/printer.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

namespace rrgen {

TEST_CASE("printer: holes filled, lines indented by the printer's depth") {
  Printer p("test");
  p.print("struct $name$ {", {{"name", "Widget"}});
  {
    auto body = p.indented();
    p.print("$type$ $member$;\n", {{"type", "std::string"}, {"member", "name"}});
    p.print("int replicas = 1;");
  }
  p.print("};");
  CHECK(p.take() == "struct Widget {\n  std::string name;\n  int replicas = 1;\n};\n");
}

TEST_CASE("printer: a block hole indents every line of its value; an empty block removes its line") {
  Printer p("test");
  p.indent();
  p.print("if (x) {\n  $body$\n}", {{"body", "a();\n\nb();"}});
  p.print("$nothing$\nlast();", {{"nothing", ""}});
  CHECK(p.take() == "  if (x) {\n    a();\n\n    b();\n  }\n  last();\n");
}

TEST_CASE("printer: take_block() is the value of a block hole: no final newline, no blank line added") {
  Printer inner;
  inner.print("a();");
  {
    auto body = inner.indented();
    inner.print("b();");
  }
  const std::string block = inner.take_block();
  CHECK(block == "a();\n  b();");
  CHECK(inner.take_block().empty());
  Printer p;
  p.print("{\n  $body$\n}", {{"body", block}});
  CHECK(p.take() == "{\n  a();\n    b();\n}\n");
}

TEST_CASE("printer: fill() checks holes as print() does and writes nothing") {
  Printer p("test");
  p.indent();
  CHECK(p.fill("if (!$x$) continue;\n", {{"x", "a"}}) == "if (!a) continue;");
  CHECK_THROWS_AS(p.fill("x;", {{"x", "a"}}), std::logic_error);
  CHECK(p.take().empty());
}

TEST_CASE("printer: empty lines carry no indentation and trailing spaces are dropped") {
  Printer p;
  p.indent();
  p.print("a;   \n\nb;");
  p.line();
  CHECK(p.take() == "  a;\n\n  b;\n\n");
}

TEST_CASE("printer: line() and doc() are verbatim: a $ stays a $") {
  Printer p;
  p.line("static const rr::Pattern pattern(R\"rr(^a$)rr\");");
  p.doc("costs $5\n\nsecond paragraph \\");
  CHECK(p.take() == "static const rr::Pattern pattern(R\"rr(^a$)rr\");\n/// costs $5\n///\n/// second paragraph\n");
}

TEST_CASE("printer: $$ is a literal dollar") {
  Printer p;
  p.print("$$x = $v$", {{"v", "1"}});
  CHECK(p.take() == "$x = 1\n");
}

TEST_CASE("printer: an unknown or unused variable is a bug in rrgen, named in the error") {
  Printer p("types");
  CHECK_THROWS_WITH_AS(p.print("int $membr$;", {{"member", "x"}}), "template types: no value for $membr$",
                       std::logic_error);
  CHECK_THROWS_WITH_AS(p.print("int x;", {{"member", "x"}}), "printer types: $member$ is given but no hole uses it",
                       std::logic_error);
  CHECK_THROWS_AS(p.print("int $x;"), std::logic_error);  // unclosed hole
}

TEST_CASE("printer: outdent below column 0 is refused; column() follows the depth") {
  Printer p;
  CHECK(p.column() == 0);
  {
    auto a = p.indented();
    auto b = p.indented();
    CHECK(p.column() == 4);
    auto c = p.indented(2);
    CHECK(p.column() == 8);
  }
  CHECK(p.column() == 0);
  CHECK_THROWS_AS(p.outdent(), std::logic_error);
}

}  // namespace rrgen
