// rr::ForwardingClient: a Client that sends every verb to an inner client. Decorators (a cache in
// front of the API, a recording test client, fault injection) derive from it and override only the
// do_<verb> they change, calling ForwardingClient::do_<verb> for the inner client's answer.
#pragma once
#include <memory>

#include "rr/client/client.hpp"

namespace rr {

class ForwardingClient : public Client {
 public:
  // Throws std::invalid_argument when `inner` is null.
  explicit ForwardingClient(std::shared_ptr<Client> inner);
  // Without ownership: `inner` must outlive this client.
  explicit ForwardingClient(Client& inner);

  // The client the verbs go to (not owned when built from a reference).
  const std::shared_ptr<Client>& inner() const noexcept { return inner_; }

 protected:
  KindInfo do_kind_info(const GroupVersionKind& gvk) const override;
  Json do_get(const KindInfo& kind, const ObjectKey& key) override;
  Json do_list(const KindInfo& kind, const ListOptions& opts) override;
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;
  Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;
  void do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) override;
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override;
  bool do_has_field_index(const KindInfo& kind, std::string_view field) const override;

 private:
  std::shared_ptr<Client> inner_;
};

}  // namespace rr
