// The two admission paths agree (issue 14): every corpus sample of a generated kind goes through
// its generated type (decode, apply_defaults(), validate(): typed checks, then the CEL rules and
// junctors the type embeds) and through rr::schema compiled from the same CRD version with
// cel_node_checks() (prune, apply_defaults, validate). Both must report the same set of messages.
// A disagreement prints the sample, the defining file and each side's messages; the only ones
// tolerated are listed in differential_exclusions.txt with the reason. The deliberately invalid
// samples (excluded from the other corpus tests) are compared too: both must refuse them alike.
//
//   corpus_differential CORPUS_DIR SAMPLE_EXCLUSIONS DIFFERENTIAL_EXCLUSIONS
#include <filesystem>
#include <iostream>
#include <map>
#include <set>
#include <span>
#include <string>
#include <vector>

#include "corpus_yaml.hpp"
#include "key_list.hpp"
#include "rr/core/kind_codec.hpp"
#include "rr/schema/schema.hpp"
#include "rr/schema_cel/cel_node_checks.hpp"
#include "rr/validation/api_server_checks.hpp"

std::vector<std::pair<std::string_view, std::span<const rr::KindCodec>>> corpus_kind_tables();

namespace fs = std::filesystem;

namespace {

using Messages = std::set<std::string>;

struct Generated {
  std::string file;  // crds/<project>/<file>: where the kind is defined
  const rr::KindCodec* codec;
};

// "<apiVersion>|<kind>" -> every generated definition; a sample prefers its own project's.
using Codecs = std::multimap<std::string, Generated>;

const Generated* find_codec(const Codecs& codecs, const std::string& key, const std::string& project) {
  auto [lo, hi] = codecs.equal_range(key);
  const Generated* any = nullptr;
  for (auto it = lo; it != hi; ++it) {
    if (it->second.file.rfind("crds/" + project + "/", 0) == 0) return &it->second;
    if (!any) any = &it->second;
  }
  return any;
}

// "<file>|<apiVersion>|<kind>" -> the version's schema with its rules, for every version that
// compiles (corpus.schema_admission reports those that do not).
std::map<std::string, rr::schema::Schema> compile_schemas(const fs::path& root) {
  std::map<std::string, rr::schema::Schema> out;
  for (const auto& path : corpus::yaml_files(root / "crds")) {
    const std::string rel = fs::relative(path, root).generic_string();
    for (const rr::Json& crd : corpus::yaml_documents(path)) {
      if (!crd.is_object() || crd.value("kind", "") != "CustomResourceDefinition") continue;
      const std::string group = crd.value("/spec/group"_json_pointer, std::string());
      const std::string kind = crd.value("/spec/names/kind"_json_pointer, std::string());
      const rr::Json shared = crd.value("/spec/validation/openAPIV3Schema"_json_pointer, rr::Json());
      for (const rr::Json& version : crd.value("/spec/versions"_json_pointer, rr::Json::array())) {
        const rr::Json schema = version.value("/schema/openAPIV3Schema"_json_pointer, shared);
        if (schema.is_null()) continue;
        rr::schema::CompileOptions options;
        options.node_checks = rr::schema::cel_node_checks();
        auto result = rr::schema::Schema::compile(schema, options);
        if (auto* compiled = std::get_if<rr::schema::Schema>(&result))
          out.emplace(rel + "|" + group + "/" + version.value("name", "") + "|" + kind, std::move(*compiled));
      }
    }
  }
  return out;
}

// The ObjectMeta rules a generated validate() adds (rr::validation, as the cluster applies them
// beside either path): not the schema engine's business, so not compared here.
Messages metadata_messages(const rr::KindCodec& codec, const rr::Json& doc) {
  const std::string_view api_version = codec.api_version;
  const auto slash = api_version.find('/');
  const rr::validation::KindFacts facts{
      slash == std::string_view::npos ? std::string_view() : api_version.substr(0, slash),
      slash == std::string_view::npos ? api_version : api_version.substr(slash + 1), codec.kind, codec.resource.plural,
      codec.resource.namespaced};
  std::vector<rr::FieldError> found;
  rr::validation::add_api_server_findings(facts, doc.value("metadata", rr::Json::object()).dump(), {}, found);
  Messages out;
  for (const auto& e : found) out.insert(e.message);
  return out;
}

Messages typed_path(const rr::KindCodec& codec, const rr::Json& doc) {
  Messages out;
  const Messages metadata = metadata_messages(codec, doc);
  try {
    for (const auto& e : codec.default_and_validate(doc.dump()))
      if (!metadata.count(e.message)) out.insert(e.message);
  } catch (const rr::DecodeError& e) {
    out.insert(std::string("decode error: ") + e.what());
  }
  return out;
}

Messages schema_path(const rr::schema::Schema& schema, rr::Json doc) {
  schema.prune(doc);
  schema.apply_defaults(doc);
  Messages out;
  for (const auto& e : schema.validate(doc, nullptr)) out.insert(e.message);
  return out;
}

void print_only(const char* side, const Messages& these, const Messages& others) {
  for (const auto& m : these)
    if (!others.count(m)) std::cout << "    " << side << " only: " << m << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 4) {
    std::cerr << "usage: corpus_differential CORPUS_DIR SAMPLE_EXCLUSIONS DIFFERENTIAL_EXCLUSIONS\n";
    return 2;
  }
  const fs::path root = argv[1];
  const auto sample_exclusions = corpus::read_key_list(argv[2]);
  const auto exclusions = corpus::read_key_list(argv[3]);
  std::set<std::string> used;

  Codecs codecs;
  for (const auto& [file, table] : corpus_kind_tables())
    for (const auto& k : table)
      codecs.emplace(std::string(k.api_version) + "|" + std::string(k.kind), Generated{std::string(file), &k});
  const auto schemas = compile_schemas(root);

  int agreed = 0, disagreed = 0, tolerated = 0, skipped = 0, invalid = 0, invalid_refused = 0, with_findings = 0;
  for (const auto& path : corpus::yaml_files(root / "samples")) {
    const std::string rel = fs::relative(path, root).generic_string();
    const std::string project = fs::relative(path, root / "samples").begin()->string();
    const auto why = sample_exclusions.find(rel);
    const bool deliberately_invalid = why != sample_exclusions.end() &&
                                      why->second.find("deliberately invalid") != std::string::npos;
    if (why != sample_exclusions.end() && !deliberately_invalid) continue;
    const auto docs = corpus::yaml_documents(path);
    for (std::size_t i = 0; i < docs.size(); ++i) {
      const rr::Json& doc = docs[i];
      if (!doc.is_object()) continue;
      const std::string id = rel + "#" + std::to_string(i);
      const std::string gvk = doc.value("apiVersion", "") + "|" + doc.value("kind", "");
      const Generated* generated = find_codec(codecs, gvk, project);
      if (!generated || sample_exclusions.count(id)) continue;
      const auto schema = schemas.find(generated->file + "|" + gvk);
      if (schema == schemas.end()) {
        ++skipped;  // the version's schema does not compile: corpus.schema_admission lists it
        continue;
      }
      const Messages typed = typed_path(*generated->codec, doc), checked = schema_path(schema->second, doc);
      if (deliberately_invalid) {
        ++invalid;
        invalid_refused += !typed.empty() && !checked.empty();
      }
      with_findings += !typed.empty();
      if (typed == checked) {
        ++agreed;
        continue;
      }
      if (exclusions.count(id)) {
        used.insert(id);
        ++tolerated;
        continue;
      }
      ++disagreed;
      std::cout << "DISAGREE " << id << " (" << generated->file << "):\n";
      print_only("validate()", typed, checked);
      print_only("rr::schema", checked, typed);
    }
  }
  int stale = 0;
  for (const auto& [key, reason] : exclusions)
    if (!used.count(key))
      ++stale, std::cout << "FAIL stale exclusion (the paths agree or no such sample): " << key << "\n";
  std::cout << "differential: " << agreed << " samples agree (" << with_findings << " of them with findings), "
            << disagreed << " disagree, " << tolerated << " listed, " << skipped
            << " without a compiled schema; deliberately invalid documents refused by both: " << invalid_refused
            << " of " << invalid << "\n";
  return disagreed == 0 && stale == 0 && agreed > 0 ? 0 : 1;
}
