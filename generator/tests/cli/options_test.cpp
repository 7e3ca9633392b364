#include "cli/options.hpp"

#include <doctest/doctest.h>

#include <sstream>

namespace rrgen {
namespace {

struct Run {
  Options options;
  std::optional<int> code;
  std::string out, err;
};

Run parse(std::vector<std::string> args, std::initializer_list<Flag> accepted) {
  Run r;
  std::ostringstream out, err;
  r.code = parse_options(args, accepted, "usage text\n", r.options, out, err);
  r.out = out.str();
  r.err = err.str();
  return r;
}

TEST_CASE("options: one member per flag, in either spelling; operands in order") {
  const Run r = parse({"a.yaml", "--out", "gen", "--namespace=demo", "--quiet", "b.yaml"},
                      {Flag::Out, Flag::Namespace, Flag::Quiet});
  CHECK_FALSE(r.code);
  CHECK(r.options.out_dir == "gen");
  CHECK(r.options.out_given);
  CHECK(r.options.cpp_namespace == "demo");
  CHECK(r.options.quiet);
  CHECK(r.options.operands == std::vector<std::string>{"a.yaml", "b.yaml"});
  CHECK(r.err.empty());
}

TEST_CASE("options: a flag the subcommand does not take is an unknown option") {
  const Run r = parse({"--builtin"}, {Flag::Out});
  CHECK(r.code == 2);
  CHECK(r.err.find("unknown option '--builtin'") != std::string::npos);
  CHECK_FALSE(r.options.builtin);
}

TEST_CASE("options: a value flag without its value is a usage error, --help prints the usage") {
  const Run missing = parse({"--spec"}, {Flag::Spec});
  CHECK(missing.code == 2);
  CHECK(missing.err.find("option '--spec' needs a value") != std::string::npos);
  const Run help = parse({"x", "-h", "--bogus"}, {});
  CHECK(help.code == 0);
  CHECK(help.out == "usage text\n");
}

TEST_CASE("options: the unknown-option hint is added when it says something") {
  Options o;
  std::ostringstream out, err;
  CHECK(parse_options({"-x"}, {}, "", o, out, err, [](const std::string& opt) { return opt + " is not a name"; }) == 2);
  CHECK(err.str().find("unknown option '-x'; -x is not a name") != std::string::npos);
}

}  // namespace
}  // namespace rrgen
