// A unit source written in parts (TypesOptions::source_part_lines, `rrgen types
// --source-part-lines`) and the sharded aggregate that spreads the parts (docs/types.md).
#include <doctest/doctest.h>

#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "backends/types/emit_types.hpp"
#include "cli/cli_types.hpp"
#include "load/inputs.hpp"
#include "sema/sema.hpp"

using namespace rrgen;

namespace {

// One kind with eight structs (spec, status and nested objects) and two enums.
const std::string kCrd = R"(apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: boxes.parts.rrgen.dev}
spec:
  group: parts.rrgen.dev
  names: {kind: Box, plural: boxes}
  scope: Namespaced
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                size: {type: string, enum: [S, M, L]}
                lid: {type: object, properties: {color: {type: string}, hinge: {type: object, properties: {pin: {type: integer}}}}}
                items: {type: array, items: {type: object, properties: {name: {type: string}, weight: {type: number}}}}
                label: {type: object, properties: {text: {type: string}, font: {type: object, properties: {name: {type: string}}}}}
            status:
              type: object
              properties:
                phase: {type: string, enum: [Open, Closed]}
                seal: {type: object, properties: {at: {type: string, format: date-time}}}
)";

struct Run {
  SourceSet sources;
  InputSet inputs;
  Diagnostics diags;
  Model model;
};

std::unique_ptr<Run> model_of(const std::string& doc) {
  auto r = std::make_unique<Run>();
  const std::string* name = r->sources.add("memory/box.yaml", doc);
  bool recognised = false;
  for (const auto& d : load_yaml(name, r->sources.content(name), r->diags))
    read_document(d, r->inputs, r->diags, recognised);
  r->model = build_model(r->inputs, SemaOptions{}, r->diags);
  return r;
}

std::map<std::string, std::string> files_of(const OutputSet& out) {
  std::map<std::string, std::string> m;
  for (const auto& f : out.files) m[f.path] = f.content;
  return m;
}

// The structs whose rr_decode a text defines, in order.
std::vector<std::string> decoded_structs(const std::string& text) {
  std::vector<std::string> names;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    if (line.rfind("void ", 0) == 0 && line.find("::rr_decode(") != std::string::npos)
      names.push_back(line.substr(5, line.find("::rr_decode(") - 5));
  return names;
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

}  // namespace

TEST_CASE("source parts: a unit over the limit is written in parts of whole structs, none empty, in order") {
  const auto r = model_of(kCrd);
  REQUIRE_FALSE(r->diags.has_errors());
  const auto whole = files_of(emit_types(r->model, TypesOptions{"test", 0}));
  const std::string base = "parts_rrgen_dev/v1/box";
  REQUIRE(whole.count(base + ".cpp") == 1);
  CHECK(whole.count(base + ".part2.cpp") == 0);
  const std::vector<std::string> all = decoded_structs(whole.at(base + ".cpp"));
  REQUIRE(all.size() == 8);
  // The default limit (5,000 lines) leaves a small unit as it was.
  CHECK(files_of(emit_types(r->model, TypesOptions{"test"})) == whole);

  const auto split = files_of(emit_types(r->model, TypesOptions{"test", 60}));
  std::vector<std::string> in_parts;
  std::size_t parts = 0;
  for (std::size_t i = 0; split.count(source_part_path(base, i)) != 0; ++i) {
    const std::string& text = split.at(source_part_path(base, i));
    const auto names = decoded_structs(text);
    CHECK_MESSAGE(!names.empty(), "part " << i + 1 << " holds no struct");
    in_parts.insert(in_parts.end(), names.begin(), names.end());
    CHECK(has(text, "#include \"parts_rrgen_dev/v1/box.hpp\""));
    CHECK(has(text, "namespace parts_rrgen_dev::v1 {"));
    CHECK(has(text, "enum_values(BoxSpecSize)") == (i == 0));  // the enums' values in the first part only
    ++parts;
  }
  CHECK(parts >= 3);
  CHECK(in_parts == all);  // every struct once, in declaration order
  CHECK(has(split.at(base + ".part2.cpp"), "// Source part 2 of " + std::to_string(parts)));
  CHECK(split.at(base + ".hpp") == whole.at(base + ".hpp"));  // the header does not change
}

TEST_CASE("source parts: the aggregate includes every part; shards spread them, the kind row with the first") {
  const auto r = model_of(kCrd);
  REQUIRE_FALSE(r->diags.has_errors());
  const TypesOptions options{"test", 60};
  OutputSet unity = emit_types(r->model, options);
  emit_aggregate(r->model, "agg", options, unity, 0);
  const auto u = files_of(unity);
  const std::string base = "parts_rrgen_dev/v1/box";
  CHECK(has(u.at("agg.cpp"), "#include \"" + base + ".cpp\"\n#include \"" + base + ".part2.cpp\""));

  OutputSet sharded = emit_types(r->model, options);
  emit_aggregate(r->model, "agg", options, sharded, 3);
  const auto s = files_of(sharded);
  std::size_t parts = 0;
  while (s.count(source_part_path(base, parts)) != 0) ++parts;
  REQUIRE(parts >= 3);
  std::set<int> shards_used;
  for (std::size_t i = 0; i < parts; ++i) {
    int holders = 0;
    for (int k = 1; k <= 3; ++k) {
      const std::string& shard = s.at("agg_" + std::to_string(k) + ".cpp");
      if (!has(shard, "#include \"" + source_part_path(base, i) + "\"")) continue;
      ++holders;
      shards_used.insert(k);
      if (i == 0) CHECK(has(shard, "decode_text<::parts_rrgen_dev::v1::Box>"));
    }
    CHECK_MESSAGE(holders == 1, "part " << i + 1 << " is in " << holders << " shards");
  }
  CHECK(shards_used.size() == 3);  // one unit's parts spread over the shards
  int rows = 0;
  for (int k = 1; k <= 3; ++k)
    rows += has(s.at("agg_" + std::to_string(k) + ".cpp"), "decode_text<::parts_rrgen_dev::v1::Box>");
  CHECK(rows == 1);  // the kind's row once
}

TEST_CASE("source parts: --source-part-lines takes a number") {
  std::ostringstream out, err;
  CHECK(run_types({"--source-part-lines", "many", "x.yaml"}, out, err) == 2);
  CHECK(has(err.str(), "--source-part-lines takes a number of lines (0: never split), not 'many'"));
}
