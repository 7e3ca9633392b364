// The out-of-line part of ChildApplyReconciler (rr/reconcilers/child_apply.hpp).
#include "rr/reconcilers/child_apply.hpp"

#include <cctype>

#include "rr/core/json.hpp"

namespace rr::child_apply_detail {

Error prepare_metadata(ObjectMetaApply& config, const ObjectMeta& parent, OwnerReference ref) {
  if (!config.name || config.name->empty()) {
    return Error::make(
        "the desired child's apply configuration must set metadata.name (generateName cannot be applied)");
  }
  // set_controller_reference's checks and upsert, over the members an apply configuration holds.
  ObjectMeta meta;
  meta.name = *config.name;
  meta.namespace_ = config.namespace_.value_or(parent.namespace_);
  if (config.owner_references) meta.owner_references = *config.owner_references;
  if (!parent.namespace_.empty() && meta.namespace_ != parent.namespace_) {
    return Error::make("cross-namespace owner references are disallowed, owner's namespace " + parent.namespace_ +
                       ", obj's namespace " + meta.namespace_);
  }
  if (Error err = upsert_controller_reference(meta, std::move(ref))) return err;
  if (!meta.namespace_.empty()) config.namespace_ = meta.namespace_;
  config.owner_references = std::move(meta.owner_references);
  return {};
}

bool applied_in_sync(const client_detail::ObjectCodec& codec, const void* actual, const void* config,
                     void (*encode)(Json& out, const void* config), std::string_view field_manager) {
  Json live;
  codec.encode(live, actual);
  Json desired;
  encode(desired, config);
  Json applied = extract_applied(live, field_manager);
  // apiVersion and kind name the type, which both sides share; an object read from a list may
  // carry neither (list items need not), and must not count as a difference.
  for (Json* side : {&applied, &desired}) {
    if (!side->is_object()) return false;
    side->erase("apiVersion");
    side->erase("kind");
  }
  return applied == desired;
}

std::string default_field_manager(const KindInfo& resource_type) {
  std::string out = resource_type.gvk.kind;
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

}  // namespace rr::child_apply_detail
