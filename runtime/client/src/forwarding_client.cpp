#include "rr/client/forwarding_client.hpp"

#include <stdexcept>

namespace rr {

ForwardingClient::ForwardingClient(std::shared_ptr<Client> inner) : inner_(std::move(inner)) {
  if (!inner_) throw std::invalid_argument("rr::ForwardingClient needs a client to forward to");
}

// The aliasing constructor with no owner: a shared_ptr that points at `inner` and never deletes it.
ForwardingClient::ForwardingClient(Client& inner) : inner_(std::shared_ptr<Client>(), &inner) {}

KindInfo ForwardingClient::do_kind_info(const GroupVersionKind& gvk) const { return inner_->kind_info(gvk); }

Json ForwardingClient::do_get(const KindInfo& kind, const ObjectKey& key) { return inner_->get(kind, key); }

Json ForwardingClient::do_list(const KindInfo& kind, const ListOptions& opts) { return inner_->list(kind, opts); }

Json ForwardingClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->create(kind, object, opts);
}

Json ForwardingClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->update(kind, object, opts);
}

Json ForwardingClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return inner_->update_status(kind, object, opts);
}

Json ForwardingClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                                std::string_view subresource, const WriteOptions& opts) {
  return inner_->patch(kind, key, type, body, subresource, opts);
}

Json ForwardingClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  return inner_->remove(kind, key, opts);
}

void ForwardingClient::do_remove_collection(const KindInfo& kind, const ListOptions& list,
                                            const DeleteOptions& opts) {
  inner_->remove_collection(kind, list, opts);
}

std::unique_ptr<Watch> ForwardingClient::do_watch(const KindInfo& kind, const ListOptions& opts) {
  return inner_->watch(kind, opts);
}

}  // namespace rr
