// What the core reconciler tests share: an in-memory cluster serving the test kinds, a client
// over it that records calls and fails chosen ones, an event recorder, a tracker, a pinned clock,
// and builders for the test objects.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/root.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"
#include "rrtest/v1/test_resource_no_status.hpp"

namespace coretest {

using rrtest::v1::TestChild;
using rrtest::v1::TestResource;
using rrtest::v1::TestResourceNoStatus;

inline constexpr std::string_view test_namespace = "test-namespace";

// One call through TestClient: the verb ("get", "list", "create", "update", "update_status",
// "patch", "remove"), the kind, the key and the object or patch body sent.
struct Call {
  std::string verb;
  std::string kind;
  rr::ObjectKey key;
  rr::Json body;
};

// A client of the cluster that records every call and can make calls fail (as the testing
// harness's reactors do) or hide objects (a cache that has not seen them yet).
class TestClient final : public rr::ClusterClient {
 public:
  using rr::ClusterClient::ClusterClient;

  // Every later call of `verb` on `kind` ("" = any kind) fails with `status`.
  void fail(std::string verb, std::string kind, rr::Status status);
  void clear_failures() { failures_.clear(); }
  // Names that get and list do not see.
  std::set<std::string> hidden;
  // Applied to every object get and list return (a stale or doctored cache).
  std::function<void(rr::Json&)> mutate_reads;

  std::vector<Call> calls;
  std::vector<Call> calls_of(std::string_view verb, std::string_view kind = {}) const;
  // "verb kind name" of each write, in order (get and list left out).
  std::vector<std::string> writes() const;

 protected:
  rr::Json do_get(const rr::KindInfo& kind, const rr::ObjectKey& key) override;
  rr::Json do_list(const rr::KindInfo& kind, const rr::ListOptions& opts) override;
  rr::Json do_create(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override;
  rr::Json do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override;
  rr::Json do_update_status(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) override;
  rr::Json do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type, std::string_view body,
                    std::string_view subresource, const rr::WriteOptions& opts) override;
  rr::Json do_remove(const rr::KindInfo& kind, const rr::ObjectKey& key, const rr::DeleteOptions& opts) override;

 private:
  struct Failure {
    std::string verb;
    std::string kind;
    rr::Status status;
  };
  void enter(std::string verb, const rr::KindInfo& kind, rr::ObjectKey key, rr::Json body);
  std::vector<Failure> failures_;
};

class Recorder final : public rr::EventRecorder {
 public:
  void record(const rr::Event& event) override { events.push_back(event); }
  std::vector<rr::Event> events;
  // "Type Reason Message" of each event, in order.
  std::vector<std::string> lines() const;
};

struct Env {
  Env();
  Env(const Env&) = delete;  // the clock captures `this`
  Env& operator=(const Env&) = delete;

  std::chrono::system_clock::time_point now;
  std::shared_ptr<rr::Cluster> cluster;
  std::shared_ptr<TestClient> client;  // the (cached) client
  std::shared_ptr<TestClient> reader;  // the uncached api_reader, over the same cluster
  std::shared_ptr<Recorder> recorder;
  std::shared_ptr<rr::Tracker> tracker;

  rr::Config config() const;
  rr::RequestOptions options() const;  // pinned now
  // A context as a root would build it for `request` (for sub-reconciler tests).
  rr::Context context(const rr::ObjectKey& request = {std::string(test_namespace), "test-resource"}) const;

  // Puts the object in the store as given (a test's given object) and returns it as stored.
  template <rr::Object T>
  T seed(const T& object) {
    cluster->seed(rr::kind_info_of<T>(), rr::to_object_json(object));
    return stored<T>(rr::key_of(object)).value();
  }
  // The object as the cluster has it now.
  template <rr::Object T>
  std::optional<T> stored(const rr::ObjectKey& key) const {
    rr::ClusterClient direct(cluster);
    return direct.try_get<T>(key);
  }
  template <rr::Object T>
  std::vector<T> all() const {
    rr::ClusterClient direct(cluster);
    return direct.list<T>();
  }
};

// Builders.
TestResource make_resource(std::string name = "test-resource");
TestResourceNoStatus make_resource_no_status(std::string name = "test-resource");
// A child of `parent` (controlled by it unless `controlled` is false), in its namespace.
TestChild make_child(const TestResource& parent, std::string name, std::string image = "image:1",
                     bool controlled = true);
rr::Time terminating_since();

// The first event's "Type Reason Message", or "" when none.
std::string first_event(const Env& env);

}  // namespace coretest
