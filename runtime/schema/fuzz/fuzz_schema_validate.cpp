// libFuzzer target for schema admission: the input is a schema (JSON), a newline, and an object
// (JSON). A schema that compiles must default, prune and validate any object without crashing or
// throwing; pruning twice removes nothing the second time, and validation is deterministic.
//
//   fuzz_schema_validate -max_total_time=60 corpus_dir/ tests/fuzz/corpus/fuzz_schema_validate/
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "rr/schema/schema.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 8192) return 0;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  if (newline == std::string_view::npos) return 0;
  const rr::Json schema_json = rr::Json::parse(input.substr(0, newline), nullptr, /*allow_exceptions=*/false);
  rr::Json object = rr::Json::parse(input.substr(newline + 1), nullptr, /*allow_exceptions=*/false);
  if (schema_json.is_discarded() || object.is_discarded()) return 0;
  auto compiled = rr::schema::Schema::compile(schema_json);
  const auto* schema = std::get_if<rr::schema::Schema>(&compiled);
  if (!schema) return 0;
  const rr::Json old = object;
  schema->apply_defaults(object);
  schema->prune(object);
  if (!schema->prune(object).empty()) std::abort();
  const auto first = schema->validate(object, &old);
  const auto second = schema->validate(object, &old);
  if (first != second) std::abort();
  schema->validate(object, nullptr, {.ratcheting = false});
  return 0;
}
