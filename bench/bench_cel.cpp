// CEL throughput (rr::cel) on typical Kubernetes validation rules:
//   compile    parse + name and type checks + plan of the rule text, per second (self and oldSelf declared)
//   evaluate   evaluations of the compiled program per second, `self` already converted to CEL
//              values (as an admission check holds one activation per object)
//   json+eval  the same with `self` converted from JSON each time (an object seen once)
// CPU time is reported (the machine is shared).
//
// Usage: bench_cel [--seconds S]   (default 1 per measurement)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench_util.hpp"
#include "rr/cel/program.hpp"

namespace {

struct Rule {
  const char* expr;
  const char* self;  // JSON
};

const Rule kRules[] = {
    {"self.minReplicas <= self.replicas", R"({"minReplicas": 1, "replicas": 3, "maxReplicas": 10})"},
    {"self.all(x, x.name.startsWith('a'))",
     R"([{"name": "alpha"}, {"name": "apple"}, {"name": "avocado"}, {"name": "anise"}, {"name": "apricot"},
         {"name": "acorn"}, {"name": "almond"}, {"name": "aubergine"}])"},
    {"self.matches('^[a-z]+$')", R"("validname")"},
};

// Runs `body` in batches until `seconds` of CPU time pass; returns operations per CPU second.
template <class F>
double rate(double seconds, F&& body) {
  constexpr int kBatch = 1000;
  long ops = 0;
  bench::Stopwatch sw;
  for (;;) {
    for (int i = 0; i < kBatch; ++i) body();
    ops += kBatch;
    const bench::Times t = sw.elapsed();
    if (t.cpu >= seconds) return static_cast<double>(ops) / t.cpu;
  }
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 1.0;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--seconds") == 0 && i + 1 < argc) {
      seconds = std::atof(argv[++i]);
    } else {
      std::fprintf(stderr, "usage: %s [--seconds S]\n", argv[0]);
      return 2;
    }
  }
  std::printf("bench_cel (%s, %s): operations per CPU second\n", RRGEN_BENCH_BUILD_TYPE, bench::compiler_name());
  std::printf("%-40s %14s %14s %14s\n", "rule", "compile/s", "evaluate/s", "json+eval/s");
  for (const auto& rule : kRules) {
    const rr::Json self = rr::Json::parse(rule.self);
    rr::cel::CompileOptions options;  // as Kubernetes compiles a rule: self and oldSelf declared
    options.variables = std::vector<std::string>{"self", "oldSelf"};
    auto compiled = rr::cel::compile(rule.expr, options);
    if (!compiled.ok()) {
      std::fprintf(stderr, "%s\n", compiled.error_text.c_str());
      return 1;
    }
    rr::cel::Activation activation;
    activation.set_json("self", self);
    const rr::cel::Value check = compiled.program->evaluate(activation);
    if (check.kind() != rr::cel::Kind::Bool || !check.as_bool()) {
      std::fprintf(stderr, "%s: expected true, got %s\n", rule.expr, rr::cel::debug_string(check).c_str());
      return 1;
    }
    const double compile_rate = rate(seconds, [&] {
      auto c = rr::cel::compile(rule.expr, options);
      if (!c.ok()) std::abort();
    });
    const double eval_rate = rate(seconds, [&] {
      if (compiled.program->evaluate(activation).kind() != rr::cel::Kind::Bool) std::abort();
    });
    const double json_rate = rate(seconds, [&] {
      rr::cel::Activation fresh;
      fresh.set_json("self", self);
      if (compiled.program->evaluate(fresh).kind() != rr::cel::Kind::Bool) std::abort();
    });
    std::printf("%-40s %14s %14s %14s\n", rule.expr, bench::fmt("%.0f", compile_rate).c_str(),
                bench::fmt("%.0f", eval_rate).c_str(), bench::fmt("%.0f", json_rate).c_str());
  }
  return 0;
}
