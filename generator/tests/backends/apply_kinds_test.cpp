// `rrgen types --builtin --aggregate NAME [--shards N]`: the apply configurations' table of kinds
// (NAME_apply.hpp, rr::ApplyKindCodec rows beside the units they name) and its shards.
#include <doctest/doctest.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

#include "backends/types/emit_apply.hpp"
#include "cli/cli_types.hpp"
#include "sema/builtin_kinds.hpp"

using namespace rrgen;

namespace {

const std::string* file(const OutputSet& out, const std::string& path) {
  for (const auto& f : out.files)
    if (f.path == path) return &f.content;
  return nullptr;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

OutputSet picked(int shards) {
  const Model& model = builtin_model();
  const OutputSet apply = emit_apply_configurations(
      model, ApplyConfigOptions{"test", {"k8s/core/v1/config_map", "k8s/apps/v1/deployment"}});
  OutputSet out;
  emit_apply_kinds_aggregate(model, apply, "picked", "test", shards, out);
  return out;
}

}  // namespace

TEST_CASE("apply kinds: one row per resource kind, with the status extract only where the kind has a status") {
  const OutputSet out = picked(0);
  REQUIRE(out.files.size() == 2);
  const std::string* header = file(out, "picked_apply.hpp");
  const std::string* source = file(out, "picked_apply.cpp");
  REQUIRE(header);
  REQUIRE(source);
  CHECK(header->find("std::span<const rr::ApplyKindCodec> picked_apply_kinds() noexcept;") != std::string::npos);
  // The header names no unit: the table stays out of the per-kind headers and theirs out of it.
  CHECK(header->find("_apply.cpp") == std::string::npos);
  CHECK(header->find("k8s/") == std::string::npos);
  CHECK(source->find("#include \"picked_apply.hpp\"") != std::string::npos);
  CHECK(source->find("#include \"k8s/apps/v1/deployment_apply.cpp\"") != std::string::npos);
  CHECK(source->find("#include \"k8s/core/v1/container_apply.cpp\"") != std::string::npos);  // reached
  CHECK(source->find("picked_apply_kinds() noexcept {") != std::string::npos);
  // Rows: Deployment (with status) and ConfigMap (none); not the structs they reach.
  CHECK(count(*source, "{\"apps/v1\", \"Deployment\",") == 1);
  CHECK(count(*source, "{\"v1\", \"ConfigMap\",") == 1);
  CHECK(count(*source, "::k8s::apps::v1::extract_deployment_status(") == 1);
  CHECK(source->find("extract_config_map_status") == std::string::npos);
  CHECK(count(*source, "{\"v1\", \"Container\"") == 0);
}

TEST_CASE("apply kinds: shards split the units and their rows; the table joins them") {
  const OutputSet out = picked(3);
  REQUIRE(out.files.size() == 5);  // the header, three shards, the table
  const std::string* table = file(out, "picked_apply.cpp");
  REQUIRE(table);
  CHECK(table->find("picked_apply_kinds_1(), picked_apply_kinds_2(), picked_apply_kinds_3()") != std::string::npos);
  CHECK(table->find("_apply.cpp\"") == std::string::npos);  // compiles no unit itself
  std::size_t units = 0, rows = 0;
  for (const char* shard : {"picked_apply_1.cpp", "picked_apply_2.cpp", "picked_apply_3.cpp"}) {
    const std::string* s = file(out, shard);
    REQUIRE(s);
    CHECK(count(*s, "_apply.cpp\"") > 0);  // balanced: no shard empty here
    units += count(*s, "_apply.cpp\"");
    rows += count(*s, "\"Deployment\",") + count(*s, "\"ConfigMap\",");
  }
  const OutputSet whole = picked(0);
  CHECK(units == count(*file(whole, "picked_apply.cpp"), "_apply.cpp\""));
  CHECK(rows == 2);
}

TEST_CASE("apply kinds: --builtin takes --shards with --aggregate only") {
  std::ostringstream out, err;
  CHECK(run_types({"--builtin", "--apply-configurations", "k8s/core/v1/config_map", "--shards", "2"}, out, err) == 2);
  CHECK(err.str().find("--shards needs --aggregate") != std::string::npos);
  std::ostringstream out2, err2;
  CHECK(run_types({"--builtin", "--apply-configurations", "all", "--aggregate", "x", "--shards", "0"}, out2, err2) ==
        2);
  CHECK(err2.str().find("--shards takes a number from 1 to 999, not '0'") != std::string::npos);
}
