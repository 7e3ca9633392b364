// The out-of-line part of ResourceReconciler (resource.hpp): a duck's status patch.
#include "rr/reconcilers/resource.hpp"

#include "rr/client/patch.hpp"
#include "rr/core/json.hpp"

namespace rr::root_detail {

void patch_status(Client& api, const KindInfo& kind, const ObjectKey& key, EncodeStatus encode, const void* before,
                  const void* after) {
  Json from = Json::object();
  if (before) encode(from["status"], before);
  Json to = Json::object();
  if (after) encode(to["status"], after);
  api.patch(kind, key, PatchType::Merge, create_merge_patch(from, to).dump(), "status");
}

}  // namespace rr::root_detail
