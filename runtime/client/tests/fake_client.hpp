// What the Api and ForwardingClient tests share: a typed kind (Gizmo, namespaced, with a status
// subresource) and an in-memory client that records every call. The client layer has no cluster
// of its own (rr::cluster is above it), so the store here is the smallest that answers like one:
// NotFound, AlreadyExists, merge patches, lists by namespace.
#pragma once
#include <chrono>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/client/patch.hpp"
#include "rr/client/watch.hpp"
#include "rr/core/json.hpp"

namespace clienttest {

struct Gizmo {
  rr::ObjectMeta metadata;
  std::string color;
  std::optional<std::string> phase;  // status.phase
  bool operator==(const Gizmo&) const = default;
};

inline void to_json(rr::Json& j, const Gizmo& g) {
  j = {{"apiVersion", "example.dev/v1"}, {"kind", "Gizmo"}, {"metadata", g.metadata}, {"spec", {{"color", g.color}}}};
  if (g.phase) j["status"] = {{"phase", *g.phase}};
}
inline void from_json(const rr::Json& j, Gizmo& g) {
  g.metadata = j.at("metadata").get<rr::ObjectMeta>();
  g.color = j.at("spec").value("color", "");
  g.phase.reset();
  if (auto s = j.find("status"); s != j.end() && s->contains("phase")) g.phase = s->at("phase").get<std::string>();
}

inline Gizmo gizmo(std::string ns, std::string name, std::string color = "red") {
  Gizmo g;
  g.metadata.namespace_ = std::move(ns);
  g.metadata.name = std::move(name);
  g.color = std::move(color);
  return g;
}

}  // namespace clienttest

namespace rr {
template <>
struct ResourceTraits<clienttest::Gizmo> {
  static constexpr std::string_view group = "example.dev";
  static constexpr std::string_view version = "v1";
  static constexpr std::string_view kind = "Gizmo";
  static constexpr std::string_view plural = "gizmos";
  static constexpr std::string_view list_kind = "GizmoList";
  static constexpr Scope scope = Scope::Namespaced;
  static constexpr bool has_status = true;
};
}  // namespace rr

namespace clienttest {

// One call as the client received it: "get gizmos ns/name", "list gizmos ns", "create gizmos ns/name".
class FakeClient : public rr::Client {
 public:
  std::vector<std::string> calls;
  rr::ListOptions last_list;
  rr::WriteOptions last_write;
  rr::DeleteOptions last_delete;
  std::optional<rr::Status> fail_reads;  // every get and list throws this

  void put(const Gizmo& g) { store_[rr::key_of(g)] = rr::to_object_json(g); }

 protected:
  rr::KindInfo do_kind_info(const rr::GroupVersionKind& gvk) const override {
    if (gvk == rr::kind_info_of<Gizmo>().gvk) return rr::kind_info_of<Gizmo>();
    throw rr::ApiError(rr::api_errors::not_found("kinds", "", gvk.kind));
  }
  rr::Json do_get(const rr::KindInfo& kind, const rr::ObjectKey& key) override {
    note("get", kind, key.str());
    if (fail_reads) throw rr::ApiError(*fail_reads);
    return find(kind, key);
  }
  rr::Json do_list(const rr::KindInfo& kind, const rr::ListOptions& opts) override {
    note("list", kind, opts.namespace_);
    last_list = opts;
    if (fail_reads) throw rr::ApiError(*fail_reads);
    rr::Json items = rr::Json::array();
    for (const auto& [key, object] : store_) {
      if (opts.namespace_.empty() || key.namespace_ == opts.namespace_) items.push_back(object);
    }
    return {{"apiVersion", kind.gvk.api_version()}, {"kind", kind.list_kind}, {"metadata", rr::Json::object()},
            {"items", items}};
  }
  rr::Json do_create(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    const rr::ObjectKey key = rr::key_of(object);
    note("create", kind, key.str());
    last_write = opts;
    if (store_.contains(key)) throw rr::ApiError(rr::api_errors::already_exists(kind.plural, kind.gvk.group, key.name));
    rr::Json stored = object;
    stored["metadata"]["uid"] = "uid-" + std::to_string(++uids_);  // as persisted
    return store_[key] = stored;
  }
  rr::Json do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    note("update", kind, rr::key_of(object).str());
    last_write = opts;
    rr::Json& stored = find(kind, rr::key_of(object));
    const rr::Json status = stored.value("status", rr::Json());
    stored = object;  // the status subresource keeps the stored status
    if (status.is_null()) stored.erase("status");
    else stored["status"] = status;
    return stored;
  }
  rr::Json do_update_status(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override {
    note("update_status", kind, rr::key_of(object).str());
    last_write = opts;
    rr::Json& stored = find(kind, rr::key_of(object));
    stored["status"] = object.value("status", rr::Json::object());
    return stored;
  }
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override {
    note(subresource.empty() ? "patch" : "patch " + std::string(subresource), kind, key.str());
    last_write = opts;
    rr::Json& stored = find(kind, key);
    if (type != rr::PatchType::Merge) throw rr::ApiError(rr::api_errors::bad_request("merge patches only"));
    return stored = rr::apply_merge_patch(stored, rr::Json::parse(body));
  }
  rr::Json do_remove(const rr::KindInfo& kind, const rr::ObjectKey& key, const rr::DeleteOptions& opts) override {
    note("remove", kind, key.str());
    last_delete = opts;
    rr::Json last = find(kind, key);
    store_.erase(key);
    return last;
  }
  void do_remove_collection(const rr::KindInfo& kind, const rr::ListOptions& list,
                            const rr::DeleteOptions& opts) override {
    note("remove_collection", kind, list.namespace_);
    last_list = list;
    last_delete = opts;
    std::erase_if(store_, [&](const auto& entry) { return list.namespace_.empty() || entry.first.namespace_ == list.namespace_; });
  }
  std::unique_ptr<rr::Watch> do_watch(const rr::KindInfo& kind, const rr::ListOptions& opts) override {
    note("watch", kind, opts.namespace_);
    last_list = opts;
    auto watch = std::make_unique<Replay>();
    for (const auto& [key, object] : store_) {
      if (opts.namespace_.empty() || key.namespace_ == opts.namespace_) {
        watch->events.push_back({rr::WatchEventType::Added, object});
      }
    }
    return watch;
  }

 private:
  // ADDED for each object there was when the watch began, then the end of the stream.
  struct Replay final : rr::Watch {
    std::deque<rr::WatchEvent> events;
    bool stopped_ = false;
    std::optional<rr::WatchEvent> next(std::chrono::milliseconds) override {
      if (stopped_ || events.empty()) return std::nullopt;
      rr::WatchEvent e = std::move(events.front());
      events.pop_front();
      return e;
    }
    void stop() override { stopped_ = true; }
    bool stopped() const override { return stopped_; }
  };

  void note(const std::string& verb, const rr::KindInfo& kind, const std::string& where) {
    calls.push_back(verb + " " + kind.plural + " " + where);
  }
  rr::Json& find(const rr::KindInfo& kind, const rr::ObjectKey& key) {
    auto it = store_.find(key);
    if (it == store_.end()) throw rr::ApiError(rr::api_errors::not_found(kind.plural, kind.gvk.group, key.name));
    return it->second;
  }

  std::map<rr::ObjectKey, rr::Json> store_;
  int uids_ = 0;
};

}  // namespace clienttest
