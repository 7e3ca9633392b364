#include "rr/admission_policy/admission_chain.hpp"

#include <algorithm>

namespace rr::admission_policy {

AdmissionChain::AdmissionChain(std::vector<std::shared_ptr<AdmissionPlugin>> plugins) : plugins_(std::move(plugins)) {
  std::erase(plugins_, nullptr);
}

bool AdmissionChain::mutates(const StoreReader& store) {
  return std::any_of(plugins_.begin(), plugins_.end(), [&](const auto& p) { return p->mutates(store); });
}

bool AdmissionChain::mutates_kind(const StoreReader& store, const GroupVersionKind& gvk) {
  return std::any_of(plugins_.begin(), plugins_.end(), [&](const auto& p) { return p->mutates_kind(store, gvk); });
}

void AdmissionChain::mutate(const AdmissionAttributes& attributes) {
  // A plugin that has nothing to do now is skipped, as the cluster skips the whole chain.
  for (const auto& plugin : plugins_) {
    if (plugin->mutates_kind(*attributes.store, attributes.kind.gvk)) plugin->mutate(attributes);
  }
}

void AdmissionChain::validate(const AdmissionAttributes& attributes) {
  for (const auto& plugin : plugins_) plugin->validate(attributes);
}

}  // namespace rr::admission_policy
