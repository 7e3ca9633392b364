#include "rr/testing/test_client.hpp"

#include <algorithm>
#include <stdexcept>

#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::testing {
namespace {

std::string metadata_text(const Json& object, const char* key) {
  if (!object.is_object()) return {};
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return {};
  auto it = meta->find(key);
  return it != meta->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// "%03d", as reconciler.io's generateName reactor formats its counter.
std::string three_digits(std::size_t n) {
  std::string digits = std::to_string(n);
  if (digits.size() < 3) digits.insert(0, 3 - digits.size(), '0');
  return digits;
}

}  // namespace

void throw_reaction_error(const Error& error) {
  if (auto status = error.status()) throw ApiError(*status);
  throw std::runtime_error(error.message());
}

TestClient::TestClient(std::shared_ptr<Cluster> cluster, TestClientOptions options)
    : ForwardingClient(std::make_shared<ClusterClient>(cluster)), cluster_(std::move(cluster)),
      options_(std::move(options)) {}

TestClient::~TestClient() = default;

void TestClient::add_reactor(Reactor reactor) {
  std::lock_guard lock(mutex_);
  options_.reactors.push_back(std::move(reactor));
}

void TestClient::prepend_reactor(Reactor reactor) {
  std::lock_guard lock(mutex_);
  options_.reactors.insert(options_.reactors.begin(), std::move(reactor));
}

void TestClient::register_kind(const KindInfo& kind, const Cluster::AdmitFn& admit) {
  if (kind.plural.empty() || cluster()->find_kind(kind.gvk)) return;
  KindInfo served_kind = kind;
  if (const auto& types = options_.status_subresource_types) {
    served_kind.has_status = std::find(types->begin(), types->end(), kind.gvk) != types->end();
  }
  cluster()->register_kind(std::move(served_kind), admit);
}

KindInfo TestClient::served(const KindInfo& kind) {
  if (auto known = cluster()->find_kind(kind.gvk)) return *known;
  register_kind(kind);
  return cluster()->find_kind(kind.gvk).value_or(kind);
}

void TestClient::add_given(const AnyObject& object) {
  register_kind(object.kind(), object.admit());
  Json json = object.json();
  Json& meta = json["metadata"];
  if (metadata_text(json, "resourceVersion").empty()) meta["resourceVersion"] = "999";
  if (metadata_text(json, "creationTimestamp").empty()) meta["creationTimestamp"] = "1970-01-01T00:00:01Z";
  cluster()->seed(served(object.kind()), std::move(json));
}

Reaction TestClient::react_to(Action& action) {
  std::vector<Reactor> reactors;
  {
    std::lock_guard lock(mutex_);
    history_.push_back({action.verb, action.kind});
    reactors = options_.reactors;
  }
  action.history = &history_;
  Reaction reaction = react(reactors, action);
  if (reaction.error) throw_reaction_error(reaction.error);
  return reaction;
}

std::vector<Json> TestClient::creates() const {
  std::lock_guard lock(mutex_);
  return creates_;
}
std::vector<Json> TestClient::updates() const {
  std::lock_guard lock(mutex_);
  return updates_;
}
std::vector<Json> TestClient::status_updates() const {
  std::lock_guard lock(mutex_);
  return status_updates_;
}
std::vector<PatchRef> TestClient::patches() const {
  std::lock_guard lock(mutex_);
  return patches_;
}
std::vector<PatchRef> TestClient::status_patches() const {
  std::lock_guard lock(mutex_);
  return status_patches_;
}
std::vector<ApplyRef> TestClient::applies() const {
  std::lock_guard lock(mutex_);
  return applies_;
}
std::vector<ApplyRef> TestClient::status_applies() const {
  std::lock_guard lock(mutex_);
  return status_applies_;
}
std::vector<DeleteRef> TestClient::deletes() const {
  std::lock_guard lock(mutex_);
  return deletes_;
}
std::vector<DeleteCollectionRef> TestClient::delete_collections() const {
  std::lock_guard lock(mutex_);
  return delete_collections_;
}

Json TestClient::do_get(const KindInfo& kind, const ObjectKey& key) {
  KindInfo k = served(kind);
  Action action{.verb = "get", .kind = k.gvk.kind, .kind_info = k, .namespace_ = key.namespace_, .name = key.name};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_get(k, key);
}

Json TestClient::do_list(const KindInfo& kind, const ListOptions& opts) {
  KindInfo k = served(kind);
  Action action{
      .verb = "list", .kind = k.list_kind, .kind_info = k, .namespace_ = opts.namespace_, .list_options = &opts};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_list(k, opts);
}

Json TestClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    creates_.push_back(object);
  }
  Json submitted = object;
  Action action{.verb = "create",
                .kind = k.gvk.kind,
                .kind_info = k,
                .namespace_ = metadata_text(object, "namespace"),
                .name = metadata_text(object, "name"),
                .object = &submitted};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  const std::string generate_name = metadata_text(submitted, "generateName");
  if (metadata_text(submitted, "name").empty() && !generate_name.empty()) {
    std::lock_guard lock(mutex_);
    submitted["metadata"]["name"] = generate_name + three_digits(++generated_names_);
  }
  return ForwardingClient::do_create(k, submitted, opts);
}

Json TestClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    updates_.push_back(object);
  }
  Json submitted = object;
  Action action{.verb = "update",
                .kind = k.gvk.kind,
                .kind_info = k,
                .namespace_ = metadata_text(object, "namespace"),
                .name = metadata_text(object, "name"),
                .object = &submitted};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_update(k, submitted, opts);
}

Json TestClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    status_updates_.push_back(object);
  }
  Json submitted = object;
  Action action{.verb = "update",
                .kind = k.gvk.kind,
                .kind_info = k,
                .namespace_ = metadata_text(object, "namespace"),
                .name = metadata_text(object, "name"),
                .subresource = "status",
                .object = &submitted};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_update_status(k, submitted, opts);
}

Json TestClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                          std::string_view subresource, const WriteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    if (type == PatchType::Apply) {
      (subresource == "status" ? status_applies_ : applies_)
          .push_back({k.gvk.group, k.gvk.kind, key.namespace_, key.name, std::string(subresource), opts.field_manager,
                      opts.force, std::string(body)});
    } else {
      (subresource == "status" ? status_patches_ : patches_)
          .push_back(
              {k.gvk.group, k.gvk.kind, key.namespace_, key.name, std::string(subresource), type, std::string(body)});
    }
  }
  Action action{.verb = "patch",
                .kind = k.gvk.kind,
                .kind_info = k,
                .namespace_ = key.namespace_,
                .name = key.name,
                .subresource = std::string(subresource),
                .patch_type = type,
                .patch = std::string(body)};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_patch(k, key, type, action.patch, subresource, opts);
}

Json TestClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    deletes_.push_back({k.gvk.group, k.gvk.kind, key.namespace_, key.name});
  }
  Action action{.verb = "delete", .kind = k.gvk.kind, .kind_info = k, .namespace_ = key.namespace_, .name = key.name};
  if (auto reaction = react_to(action); reaction.result) return reaction.result->get();
  return ForwardingClient::do_remove(k, key, opts);
}

void TestClient::do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  KindInfo k = served(kind);
  {
    std::lock_guard lock(mutex_);
    delete_collections_.push_back({k.gvk.group, k.gvk.kind, list.namespace_,
                                   canonical_label_selector(list.label_selector),
                                   canonical_field_selector(list.field_selector)});
  }
  Action action{.verb = "delete-collection",
                .kind = k.gvk.kind,
                .kind_info = k,
                .namespace_ = list.namespace_,
                .list_options = &list};
  if (auto reaction = react_to(action); reaction.result) return;
  ForwardingClient::do_remove_collection(k, list, opts);
}

std::unique_ptr<Watch> TestClient::do_watch(const KindInfo& kind, const ListOptions& opts) {
  return ForwardingClient::do_watch(served(kind), opts);
}

}  // namespace rr::testing
