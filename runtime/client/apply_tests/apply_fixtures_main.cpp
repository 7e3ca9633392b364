// rrgen-apply-roundtrip: Kubernetes' own fixtures (k8s.io/api's testdata layout) through the apply
// configurations of rr::builtin_apply, every kind that has one.
//   rrgen-apply-roundtrip [--verbose] DIR
// For each fixture (JSON, and YAML read as JSON: round trip only, its JSON twin has the same
// object) whose apiVersion and kind have an apply configuration:
// - round trip: decoded as <Kind>Apply and encoded again, it is the fixture reduced to what an
//   applier sets (apply_fixture.hpp);
// - extract, for a kind the local cluster stores: applied by manager "a" through an rr::Cluster
//   (the kind registered without admission, with the apply schema the local API server gives it),
//   extract_<kind>(stored, "a") is what was applied; where the kind has a status subresource the
//   server drops the status from that apply, so "a" applies it to the subresource and
//   extract_<kind>_status gives it back; then manager "b" applies a label of its own and each
//   extract gives its own part only.
// Prints each failure and skip reason (with --verbose every fixture), then
//   apply-roundtrip: N passed, M failed, K skipped
// Exit status: 0 when nothing failed, 1 when something did, 2 on a usage error or unreadable DIR.
// With RRGEN_APPLY_DEBUG set, each body applied and the object stored go to standard error.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "apply_fixture.hpp"
#include "builtin_resources.hpp"
#include "openapi_schemas.hpp"
#include "roundtrip.hpp"
#include "rr/client/apply_kind_codec.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"
#include "rr/validation/decoding.hpp"
#include "rr_builtin_apply_apply.hpp"
#include "yaml_to_json.hpp"

namespace {

namespace fs = std::filesystem;
using rr::Json;

enum class Outcome { Passed, Failed, Skipped };

struct Result {
  Outcome outcome = Outcome::Passed;
  std::string detail;
};

// A check that did not hold: where, and what.
struct Mismatch : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void expect_same(const std::string& what, const Json& expected, const Json& actual) {
  const std::string at = rr::roundtrip::first_difference(expected.dump(), actual.dump());
  if (at.empty()) return;
  // first_difference names the pointer, then what differs there.
  const std::string pointer_text = at.substr(0, at.find(' '));
  auto show = [&](const Json& doc) {
    try {
      const Json::json_pointer pointer(pointer_text);
      return doc.contains(pointer) ? doc.at(pointer).dump().substr(0, 300) : std::string("(absent)");
    } catch (const std::exception&) {
      return std::string("?");
    }
  };
  throw Mismatch(what + " differs at " + at + ": expected " + show(expected) + ", got " + show(actual));
}

Json without_nulls(const Json& value) {
  if (value.is_array()) {
    Json out = Json::array();
    for (const Json& item : value) out.push_back(without_nulls(item));
    return out;
  }
  if (!value.is_object()) return value;
  Json out = Json::object();
  for (const auto& [name, child] : value.items())
    if (!child.is_null()) out[name] = without_nulls(child);
  return out;
}

const rr::ApplyKindCodec* find_row(const std::string& api_version, const std::string& kind) {
  for (const auto& row : rr_builtin_apply_apply_kinds())
    if (row.api_version == api_version && row.kind == kind) return &row;
  return nullptr;
}

// apply/extract through a cluster that stores only this kind, typed by the apply schema the local
// API server gives it (list-map keys, atomic lists, granular maps).
std::optional<std::string> check_extract(const rr::ApplyKindCodec& row, const rr::KindInfo& info,
                                         const Json& configuration) {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind(info);
  const std::shared_ptr<const Json> definitions(std::shared_ptr<const Json>{},
                                                &rr::apiserver_detail::builtin_definitions());
  const auto definition = rr::validation::kind_definition(*definitions, info.gvk.group, info.gvk.version,
                                                          info.gvk.kind);
  if (!definition) return "no OpenAPI definition of the kind (no apply schema)";
  cluster->set_apply_schema(info.gvk, definitions, Json{{"$ref", "#/components/schemas/" + *definition}});

  // The fixtures' metadata holds random strings ("nameValue", "finalizersValue") that the
  // cluster's ObjectMeta validation refuses as the API server does: the identity and finalizers
  // become valid values; everything else is applied as the fixture has it.
  // A null in a configuration removes the member (docs/runtime/23-server-side-apply.md): the
  // fixtures' nulls (a zero time in a map) are left out, or the extract could not hold them.
  Json applied = without_nulls(configuration);
  Json& meta = applied["metadata"];
  meta["name"] = "fixture";
  if (meta.contains("generateName")) meta["generateName"] = "fixture-";
  if (info.namespaced()) meta["namespace"] = "default";
  else meta.erase("namespace");
  if (meta.contains("finalizers")) meta["finalizers"] = Json::array({"apply.rrgen.dev/fixture"});
  const rr::ObjectKey key{info.namespaced() ? "default" : "", "fixture"};
  // A Namespace is created with the "kubernetes" finalizer in spec.finalizers, an atomic list the
  // applier then owns whole (the API server's namespace strategy): the configuration states it.
  if (info.gvk == rr::GroupVersionKind{"", "v1", "Namespace"} && applied.contains("spec") &&
      applied["spec"].contains("finalizers")) {
    Json& finalizers = applied["spec"]["finalizers"];
    if (std::find(finalizers.begin(), finalizers.end(), Json("kubernetes")) == finalizers.end())
      finalizers.push_back("kubernetes");
  }
  Json identity = {
      {"apiVersion", applied["apiVersion"]}, {"kind", applied["kind"]}, {"metadata", {{"name", key.name}}}};
  if (info.namespaced()) identity["metadata"]["namespace"] = key.namespace_;

  // The status subresource: the server ignores status in an apply of the object.
  std::optional<Json> status;
  if (info.has_status && applied.contains("status")) {
    status = identity;
    (*status)["status"] = applied["status"];
    applied.erase("status");
  }
  const Json expected_a = Json::parse(row.reencode(applied.dump()));
  auto apply = [&](const Json& body, const char* manager, std::string_view subresource) {
    return cluster->patch(info, key, rr::PatchType::Apply, body.dump(), subresource,
                          rr::WriteOptions{.field_manager = manager});
  };
  Json stored = apply(applied, "a", {});
  if (std::getenv("RRGEN_APPLY_DEBUG")) std::cerr << applied.dump() << "\n" << stored.dump() << "\n";
  expect_same("extract of manager a", expected_a, Json::parse(row.extract(stored.dump(), "a")));
  if (status) {
    stored = apply(*status, "a", "status");
    if (std::getenv("RRGEN_APPLY_DEBUG")) std::cerr << status->dump() << "\n" << stored.dump() << "\n";
    expect_same("status extract of manager a", Json::parse(row.reencode(status->dump())),
                Json::parse(row.extract_status(stored.dump(), "a")));
    expect_same("extract of manager a after its status apply", expected_a,
                Json::parse(row.extract(stored.dump(), "a")));
  }
  // A second manager owns one label of its own.
  Json b = identity;
  b["metadata"]["labels"] = {{"apply.rrgen.dev/manager-b", "b"}};
  stored = apply(b, "b", {});
  expect_same("extract of manager b", Json::parse(row.reencode(b.dump())),
              Json::parse(row.extract(stored.dump(), "b")));
  expect_same("extract of manager a beside manager b", expected_a, Json::parse(row.extract(stored.dump(), "a")));
  return std::nullopt;
}

Result check_fixture(const fs::path& path, std::string& note) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  const std::string text = path.extension() == ".yaml" ? rr::roundtrip::yaml_to_json(buffer.str()) : buffer.str();
  const Json fixture = Json::parse(text);
  const std::string api_version = fixture.value("apiVersion", ""), kind = fixture.value("kind", "");
  const rr::ApplyKindCodec* row = find_row(api_version, kind);
  if (!row)
    return {Outcome::Skipped, "no apply configuration of " + api_version + " " + kind +
                                  " (a version rr::builtin does not serve, or not a resource: options, Status, Scale, "
                                  "Eviction, TokenRequest ...)"};
  try {
    const Json configuration = Json::parse(row->reencode(text));
    expect_same("round trip", rr::apply_testing::as_configuration(fixture), configuration);
    // A YAML fixture holds the same object as its JSON one, whose extract is checked.
    if (path.extension() == ".yaml") return {};
    const rr::KindCodec* types = rr::apiserver_detail::builtin_codec(api_version, kind);
    const bool stored = types && !types->resource.plural.empty() &&
                        types->resource.verbs.find("get") != std::string_view::npos &&
                        types->resource.verbs.find("patch") != std::string_view::npos;
    if (!stored) {
      note = "round trip only: the local cluster does not store " + kind + " (no get or patch)";
      return {};
    }
    if (auto why = check_extract(*row, rr::apiserver_detail::kind_info_of(*types), configuration)) {
      note = "round trip only: " + *why;
    }
    return {};
  } catch (const Mismatch& e) {
    return {Outcome::Failed, e.what()};
  } catch (const std::exception& e) {
    return {Outcome::Failed, std::string("threw: ") + e.what()};
  }
}

}  // namespace

int main(int argc, char** argv) {
  rr::roundtrip::FixtureArgs args;
  if (const auto status = rr::roundtrip::parse_fixture_args(
          argc, argv, "rrgen-apply-roundtrip",
          "usage: rrgen-apply-roundtrip [--verbose] DIR\n\n"
          "Round-trips every fixture of DIR (<group>.<version>.<Kind>.json/.yaml, the layout of\n"
          "k8s.io/api's testdata) through the built-in kinds' apply configurations, applies it\n"
          "through a local cluster and extracts it again, and prints\n"
          "'apply-roundtrip: N passed, M failed, K skipped'. Skipped: kinds without an apply\n"
          "configuration (versions this API does not serve).\n",
          args))
    return *status;
  const bool verbose = args.verbose;
  std::vector<fs::path> files;
  try {
    for (const auto& entry : fs::directory_iterator(args.dir)) {
      const fs::path& p = entry.path();
      const std::string name = p.filename().string();
      if ((p.extension() == ".json" || p.extension() == ".yaml") && name.find(".after_roundtrip.") == std::string::npos)
        files.push_back(p);
    }
  } catch (const fs::filesystem_error& e) {
    std::cerr << "rrgen-apply-roundtrip: " << e.what() << "\n";
    return 2;
  }
  std::sort(files.begin(), files.end());
  std::size_t passed = 0, failed = 0, skipped = 0, round_trip_only = 0;
  for (const auto& file : files) {
    std::string note;
    const Result r = check_fixture(file, note);
    const std::string name = file.filename().string();
    switch (r.outcome) {
      case Outcome::Passed:
        ++passed;
        if (!note.empty()) ++round_trip_only;
        if (verbose) std::cout << "passed: " << name << (note.empty() ? "" : " (" + note + ")") << "\n";
        break;
      case Outcome::Failed:
        ++failed;
        std::cout << "FAILED: " << name << ": " << r.detail << "\n";
        break;
      case Outcome::Skipped:
        ++skipped;
        std::cout << "skipped: " << name << ": " << r.detail << "\n";
        break;
    }
  }
  std::cout << "apply-roundtrip: " << passed << " passed, " << failed << " failed, " << skipped << " skipped";
  if (round_trip_only)
    std::cout << " (" << round_trip_only << " of the passed: round trip only, listed with --verbose)";
  std::cout << "\n";
  return failed ? 1 : 0;
}
