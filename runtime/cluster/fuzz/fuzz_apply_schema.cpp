// Fuzzes server-side apply typed by a schema: a CRD's openAPIV3Schema is outside input, and so are
// the live object and the configuration. The input is a JSON array [schema, definitions, live,
// configuration] (when it parses). Any schema, however odd ($ref cycles, keys of the wrong type),
// must type every walk (merge, comparison, removal, FieldsV1) without a crash.
#include <cstddef>
#include <cstdint>
#include <memory>
#include <string_view>

#include "apply_walk.hpp"

namespace {

const rr::Json& at(const rr::Json& input, std::size_t i) {
  static const rr::Json empty = rr::Json::object();
  return input.is_array() && input.size() > i ? input[i] : empty;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace rr::cluster_detail;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const rr::Json input = rr::Json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (input.is_discarded()) return 0;
  const ApplySchema schema{std::make_shared<const rr::Json>(at(input, 1)), at(input, 0)};
  const FieldType type = FieldType::root_of(&schema);
  const rr::Json& live = at(input, 2);
  const rr::Json& config = at(input, 3);
  const FieldSet applied = fields_set_by(config, type);
  rr::Json merged = merge_configuration(live, config, type);
  const Comparison change = compare_objects(live, merged, type);
  for (const FieldPath& path : applied.paths()) {
    (void)display_path(path);
    rr::Json copy = merged;
    remove_field(copy, path, type);
  }
  (void)change.added.to_fields_v1();
  (void)FieldSet::from_fields_v1(applied.to_fields_v1());
  return 0;
}
