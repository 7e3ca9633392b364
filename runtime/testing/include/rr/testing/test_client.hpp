// The recording client of a test: an rr::ClusterClient over an in-memory Cluster, with
// reactors in front and a record of every write.
//
// - Creates, updates and status updates are recorded as the object was submitted, before the
//   reactors run and before generateName is filled in.
// - Patches are recorded as PatchRef (status patches apart), server-side applies (PatchType::Apply)
//   as ApplyRef (with their field manager and force; status applies apart) and not as patches,
//   deletes as DeleteRef, collection deletes as DeleteCollectionRef. An apply then reaches the
//   Cluster's server-side apply (docs/runtime/23-server-side-apply.md), so it creates, merges,
//   owns fields and answers conflicts as the API server does. Gets and lists are not recorded; they only meet the
//   reactors.
// - generateName is filled in here, from a counter per client: "foo-" becomes "foo-001", then
//   "foo-002" (reconciler.io's test client), so expected names are stable.
// - Any kind a call names is served: a kind the cluster does not know yet is registered on first
//   use (reconciler.io registers kinds through its scheme).
#pragma once
#include <cstddef>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "rr/client/forwarding_client.hpp"
#include "rr/core/fwd.hpp"
#include "rr/testing/any_object.hpp"
#include "rr/testing/reactor.hpp"
#include "rr/testing/refs.hpp"

namespace rr {
class Cluster;
}  // namespace rr

namespace rr::testing {

struct TestClientOptions {
  std::vector<Reactor> reactors{};
  // The kinds with a status subresource (reconciler.io's StatusSubResourceTypes). Unset: each
  // kind's own has_status, which generated kinds know from their CRD.
  std::optional<std::vector<GroupVersionKind>> status_subresource_types{};
};

class TestClient final : public ForwardingClient {
 public:
  explicit TestClient(std::shared_ptr<Cluster> cluster, TestClientOptions options = {});
  ~TestClient() override;

  const std::shared_ptr<Cluster>& cluster() const noexcept { return cluster_; }
  void add_reactor(Reactor reactor);      // runs after the reactors already installed
  void prepend_reactor(Reactor reactor);  // runs before them

  // Serves a kind (with its admission), unless the cluster already does.
  void register_kind(const KindInfo& kind, const AdmitFn& admit = {});
  // Puts a given object in the store (not recorded): resourceVersion "999" and creationTimestamp
  // 1970-01-01T00:00:01Z unless it has its own.
  void add_given(const AnyObject& object);

  // What was recorded, in call order.
  std::vector<Json> creates() const;
  std::vector<Json> updates() const;
  std::vector<Json> status_updates() const;
  std::vector<PatchRef> patches() const;
  std::vector<PatchRef> status_patches() const;
  std::vector<ApplyRef> applies() const;
  std::vector<ApplyRef> status_applies() const;
  std::vector<DeleteRef> deletes() const;
  std::vector<DeleteCollectionRef> delete_collections() const;

 protected:
  // Every verb but kind_info: reactors first, then the cluster (kind_info goes straight to it).
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

 private:
  // The kind as the cluster serves it (registering it first when needed).
  KindInfo served(const KindInfo& kind);
  // Records the call in the history and runs the reactors; returns the reaction (a failure
  // has already been thrown).
  Reaction react_to(Action& action);

  std::shared_ptr<Cluster> cluster_;
  TestClientOptions options_;
  mutable std::mutex mutex_;
  std::vector<ActionCall> history_;
  std::size_t generated_names_ = 0;
  std::vector<Json> creates_;
  std::vector<Json> updates_;
  std::vector<Json> status_updates_;
  std::vector<PatchRef> patches_;
  std::vector<PatchRef> status_patches_;
  std::vector<ApplyRef> applies_;
  std::vector<ApplyRef> status_applies_;
  std::vector<DeleteRef> deletes_;
  std::vector<DeleteCollectionRef> delete_collections_;
};

// Throws what a reaction's error stands for: rr::ApiError when it carries a Status, otherwise
// std::runtime_error with its message.
[[noreturn]] void throw_reaction_error(const Error& error);

}  // namespace rr::testing
