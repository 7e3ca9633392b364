// The out-of-line part of ResourceReconciler (resource.hpp): a duck's status patch, the status
// apply.
#include "rr/reconcilers/resource.hpp"

#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/child_apply.hpp"
#include "rr/reconcilers/status_apply.hpp"

namespace rr::root_detail {

void patch_status(Client& api, const KindInfo& kind, const ObjectKey& key, EncodeStatus encode, const void* before,
                  const void* after) {
  Json from = Json::object();
  if (before) encode(from["status"], before);
  Json to = Json::object();
  if (after) encode(to["status"], after);
  api.patch(kind, key, PatchType::Merge, create_merge_patch(from, to).dump(), "status");
}

void apply_status(Client& api, const KindInfo& kind, const client_detail::ObjectCodec& codec, const void* original,
                  const void* computed, std::string_view field_manager) {
  Json read;
  codec.encode(read, original);
  Json written;
  codec.encode(written, computed);
  const Json config = status_apply_configuration(read, written, field_manager);
  const auto& metadata = config.at("metadata");
  const ObjectKey key{metadata.value("namespace", std::string()), metadata.value("name", std::string())};
  WriteOptions opts;
  opts.field_manager = std::string(field_manager);
  opts.force = true;
  api.patch(kind, key, PatchType::Apply, config.dump(), "status", opts);
}

std::string default_status_field_manager(const KindInfo& kind) {
  // The children's default (ChildApplyReconciler): one field manager per controller.
  return child_apply_detail::default_field_manager(kind);
}

}  // namespace rr::root_detail
