// The compile-time checks CompileOptions asks for, short of a type checker: every function named
// exists in the library (in the form it is called: global or member), every constant regular
// expression compiles, and with declared variables, every free name is one of them, a
// comprehension variable, or a type.
#pragma once
#include <cstddef>
#include <string>
#include <vector>

#include "rr/cel/ast.hpp"
#include "rr/cel/program.hpp"

namespace rr::cel {

struct CheckIssue {
  std::size_t offset;
  std::string message;
};

std::vector<CheckIssue> check_names(const Expr& expr, const CompileOptions& options);

}  // namespace rr::cel
