// The compile-time checks CompileOptions asks for, short of a type checker: every function named
// exists in the library (in the form it is called: global or member), every constant pattern of
// find()/findAll() compiles (matches() patterns are compiled, and checked, when planning), and with
// declared variables, every free name is one of them, a
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

// plan() that also returns what planning found wrong: constant patterns of matches() that RE2
// rejects (planned as error values; compile() reports them when checking).
Program plan(const Expr& expr, const CompileOptions& options, std::vector<CheckIssue>& issues);

}  // namespace rr::cel
