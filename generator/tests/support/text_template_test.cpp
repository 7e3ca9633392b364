#include "support/text_template.hpp"

#include <doctest/doctest.h>

#include <stdexcept>

#include "support/embedded.hpp"

using namespace rrgen;

TEST_CASE("templates: holes in a line are replaced as they are") {
  CHECK(fill_template("t", "struct $name$Hooks {};\n", {{"name", "Function"}}) == "struct FunctionHooks {};\n");
  CHECK(fill_template("t", "a $x$ b $x$\n", {{"x", "1\n2"}}) == "a 1\n2 b 1\n2\n");
  CHECK(fill_template("t", "costs $$5\n", {}) == "costs $5\n");
}

TEST_CASE("templates: a hole alone on its line is an indented block") {
  CHECK(fill_template("t", "{\n  $body$\n}\n", {{"body", "a;\n\nb;"}}) == "{\n  a;\n\n  b;\n}\n");
  // An empty block removes its line.
  CHECK(fill_template("t", "{\n  $body$\n}\n", {{"body", ""}}) == "{\n}\n");
  CHECK(fill_template("t", "a\n$tail$", {{"tail", ""}}) == "a\n");
}

TEST_CASE("templates: an unknown hole or an unclosed `$` is rrgen's bug") {
  CHECK_THROWS_AS(fill_template("t", "$nope$", {}), std::logic_error);
  CHECK_THROWS_AS(fill_template("t", "a $b", {{"b", ""}}), std::logic_error);
  CHECK_THROWS_AS(fill_embedded_template("templates/scaffold/none.tmpl", {}), std::logic_error);
}

TEST_CASE("templates: the scaffold templates are embedded") {
  CHECK_FALSE(embedded_file("templates/scaffold/hooks.hpp.tmpl").empty());
  CHECK_FALSE(embedded_file("templates/scaffold/step_test.cpp.tmpl").empty());
}

TEST_CASE("layout: parameters wrap under the first one when the line is too long") {
  CHECK(wrap_parameters("void f", {"int a", "int b"}, " const;", 2) == "void f(int a, int b) const;");
  CHECK(wrap_parameters("void reflect", {"rr::Context& ctx", "Widget& widget", "const Child* child"}, " const;", 2, 44) ==
        "void reflect(rr::Context& ctx,\n"
        "             Widget& widget,\n"
        "             const Child* child) const;");
  // No room after the head: the parameters go on lines of their own, indented by 4.
  CHECK(wrap_parameters("std::string a_long_function_name", {"int a", "int b"}, ";", 0, 36) ==
        "std::string a_long_function_name(\n    int a, int b);");
  // A parameter longer than any line still gets one.
  CHECK(wrap_parameters("f", {std::string(50, 'x')}, ";", 0, 20) == "f(\n    " + std::string(50, 'x') + ");");
}

TEST_CASE("layout: comments wrap at word boundaries") {
  CHECK(wrap_comment("one two three four", "// ", 12) == "// one two\n// three\n// four");
  CHECK(wrap_comment("short", "  // ") == "  // short");
  CHECK(wrap_comment("averyveryverylongword x", "// ", 10) == "// averyveryverylongword\n// x");
}
