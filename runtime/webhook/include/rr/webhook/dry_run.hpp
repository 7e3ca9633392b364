// A dry-run admission request must have no side effects: the API server sends dryRun only to
// webhooks whose sideEffects are None or NoneOnDryRun, on their word. So the adapter runs the tree
// of a dry-run request with dry_run_config(): every write goes to the server as a dry run (it is
// admitted and answered, not stored) and events are dropped; reads are unchanged.
#pragma once
#include <memory>

#include "rr/client/forwarding_client.hpp"
#include "rr/reconcilers/config.hpp"

namespace rr::webhook {

// Sends every write of the inner client with dry_run set; reads and watches pass through.
class DryRunClient : public ForwardingClient {
 public:
  using ForwardingClient::ForwardingClient;

 protected:
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;
  Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;
  void do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) override;
};

// `config` with its client's writes made dry runs and no event recorder; the reader, the tracker
// and the sync period are kept. A config without a client is returned as it is.
Config dry_run_config(const Config& config);

}  // namespace rr::webhook
