// libFuzzer target for evaluation: the input is a CEL expression, a newline, and a JSON document
// bound as `self`. Compiled without the checks (so every function and name reaches the
// evaluator), any program must evaluate without crashing, hanging or throwing, and twice to the
// same result and cost (evaluation is deterministic and does not change the program), within the
// API server's per-call cost limit; and the plain evaluation, which counts nothing, must agree
// whenever the limit was not reached.
//
//   fuzz_cel_eval -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_cel_eval/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>
#include <string_view>

#include "rr/cel/program.hpp"
#include "unbounded.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 4096) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  const std::string_view expr = input.substr(0, newline);
  const std::string_view json = newline == std::string_view::npos ? std::string_view() : input.substr(newline + 1);
  if (fuzz::unbounded(expr)) return 0;
  rr::cel::CompileOptions options;
  options.parse.max_recursion_depth = 64;
  options.check_functions = false;
  options.check_types = false;
  const auto compiled = rr::cel::compile(expr, options);
  if (!compiled.ok()) return 0;
  rr::cel::Activation activation;
  const rr::Json self = rr::Json::parse(json, nullptr, /*allow_exceptions=*/false);
  if (!self.is_discarded()) activation.set_json("self", self);
  const rr::cel::EvalOptions limited{rr::cel::per_call_limit};
  std::uint64_t first_cost = 0, second_cost = 0;
  const std::string first = rr::cel::debug_string(compiled.program->evaluate(activation, limited, &first_cost));
  const std::string second = rr::cel::debug_string(compiled.program->evaluate(activation, limited, &second_cost));
  if (first != second || first_cost != second_cost) std::abort();
  if (first_cost <= rr::cel::per_call_limit && rr::cel::debug_string(compiled.program->evaluate(activation)) != first)
    std::abort();
  return 0;
}
