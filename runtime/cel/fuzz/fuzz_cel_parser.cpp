// libFuzzer target for the CEL parser and, on what parses, the checks, the planner and one evaluation.
// Arbitrary bytes must never crash, hang or throw: a bad expression is a located error whose
// line and column lie inside the source, and every program evaluates to a value or an error value.
//
//   fuzz_cel_parser -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_cel_parser/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rr/cel/program.hpp"
#include "unbounded.hpp"

namespace {

[[noreturn]] void die(const char* why) {
  (void)why;
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;  // long inputs only slow the search; the parser's limit is tested elsewhere
  const std::string_view source(reinterpret_cast<const char*>(data), size);
  rr::cel::CompileOptions options;
  options.parse.max_recursion_depth = 64;
  options.check_functions = size % 2 == 0;  // half the inputs reach evaluation with unknown functions
  const auto compiled = rr::cel::compile(source, options);
  if (!compiled.ok()) {
    if (compiled.errors.empty() || compiled.error_text.empty()) die("a failed compile without an error");
    for (const auto& e : compiled.errors) {
      if (e.offset > source.size()) die("error offset past the end of the source");
      if (e.line < 1 || e.column < 1) die("error position not 1-based");
    }
    return 0;
  }
  if (fuzz::unbounded(source)) return 0;
  rr::cel::Activation activation;
  activation.set_json("self", rr::Json::parse(R"({"a": [1, 2, 3], "b": {"c": "text"}, "n": 2.5})"));
  activation.set("x", rr::cel::Value(std::int64_t{7}));
  std::uint64_t cost = 0;  // the per-call limit stops what would loop for ever (unbounded.hpp)
  const rr::cel::Value v = compiled.program->evaluate(activation, {rr::cel::per_call_limit}, &cost);
  (void)rr::cel::debug_string(v);
  return 0;
}
