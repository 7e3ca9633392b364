#include "support.hpp"

#include <algorithm>

#include "rr/reconcilers/tracker.hpp"

namespace coretest {

using namespace std::chrono_literals;

void TestClient::fail(std::string verb, std::string kind, rr::Status status) {
  failures_.push_back({std::move(verb), std::move(kind), std::move(status)});
}

std::vector<Call> TestClient::calls_of(std::string_view verb, std::string_view kind) const {
  std::vector<Call> out;
  for (const Call& c : calls) {
    if (c.verb == verb && (kind.empty() || c.kind == kind)) out.push_back(c);
  }
  return out;
}

std::vector<std::string> TestClient::writes() const {
  std::vector<std::string> out;
  for (const Call& c : calls) {
    if (c.verb == "get" || c.verb == "list") continue;
    out.push_back(c.verb + " " + c.kind + " " + c.key.name);
  }
  return out;
}

void TestClient::enter(std::string verb, const rr::KindInfo& kind, rr::ObjectKey key, rr::Json body) {
  calls.push_back({verb, kind.gvk.kind, std::move(key), std::move(body)});
  for (const Failure& f : failures_) {
    if (f.verb == verb && (f.kind.empty() || f.kind == kind.gvk.kind)) throw rr::ApiError(f.status);
  }
}

rr::Json TestClient::do_get(const rr::KindInfo& kind, const rr::ObjectKey& key) {
  enter("get", kind, key, nullptr);
  if (hidden.count(key.name)) {
    throw rr::ApiError(rr::api_errors::not_found(kind.plural, kind.gvk.group, key.name));
  }
  rr::Json out = rr::ClusterClient::do_get(kind, key);
  if (mutate_reads) mutate_reads(out);
  return out;
}

rr::Json TestClient::do_list(const rr::KindInfo& kind, const rr::ListOptions& opts) {
  enter("list", kind, {opts.namespace_, ""}, nullptr);
  rr::Json out = rr::ClusterClient::do_list(kind, opts);
  auto& items = out["items"];
  items.erase(std::remove_if(items.begin(), items.end(),
                             [&](const rr::Json& item) { return hidden.count(rr::key_of(item).name) > 0; }),
              items.end());
  if (mutate_reads) {
    for (auto& item : items) mutate_reads(item);
  }
  return out;
}

rr::Json TestClient::do_create(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) {
  enter("create", kind, rr::key_of(object), object);
  return rr::ClusterClient::do_create(kind, object, opts);
}

rr::Json TestClient::do_update(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) {
  enter("update", kind, rr::key_of(object), object);
  return rr::ClusterClient::do_update(kind, object, opts);
}

rr::Json TestClient::do_update_status(const rr::KindInfo& kind, const rr::Json& object, const rr::WriteOptions& opts) {
  enter("update_status", kind, rr::key_of(object), object);
  return rr::ClusterClient::do_update_status(kind, object, opts);
}

rr::Json TestClient::do_patch(const rr::KindInfo& kind, const rr::ObjectKey& key, rr::PatchType type,
                              std::string_view body, std::string_view subresource, const rr::WriteOptions& opts) {
  enter("patch", kind, key, rr::Json::parse(body));
  return rr::ClusterClient::do_patch(kind, key, type, body, subresource, opts);
}

rr::Json TestClient::do_remove(const rr::KindInfo& kind, const rr::ObjectKey& key, const rr::DeleteOptions& opts) {
  enter("remove", kind, key, nullptr);
  return rr::ClusterClient::do_remove(kind, key, opts);
}

std::vector<std::string> Recorder::lines() const {
  std::vector<std::string> out;
  for (const rr::Event& e : events) out.push_back(e.type + " " + e.reason + " " + e.message);
  return out;
}

Env::Env()
    : now(std::chrono::sys_days{std::chrono::year{2024} / 5 / 1} + 12h),
      cluster(std::make_shared<rr::Cluster>(rr::ClusterOptions{.clock = [this] { return now; },
                                                                .counter_generate_name = true})),
      client(std::make_shared<TestClient>(cluster)),
      reader(std::make_shared<TestClient>(cluster)),
      recorder(std::make_shared<Recorder>()),
      tracker(rr::make_tracker(24h, [this] { return now; })) {
  cluster->register_kind<TestResource>();
  cluster->register_kind<TestResourceNoStatus>();
  cluster->register_kind<TestChild>();
}

rr::Config Env::config() const {
  rr::Config c;
  c.client = client;
  c.api_reader = reader;
  c.tracker = tracker;
  c.recorder = recorder;
  return c;
}

rr::RequestOptions Env::options() const {
  rr::RequestOptions o;
  o.now = now;
  return o;
}

rr::Context Env::context(const rr::ObjectKey& request) const {
  return rr::Context(rr::ContextOptions{config(), request, rr::kind_info_of<TestResource>(), rr::Logger{}, now,
                                        nullptr, {}});
}

TestResource make_resource(std::string name) {
  TestResource r;
  r.metadata.namespace_ = std::string(test_namespace);
  r.metadata.name = std::move(name);
  r.metadata.generation = 1;
  r.spec.emplace();
  r.spec->image = "image:1";
  r.spec->replicas = 1;
  return r;
}

TestResourceNoStatus make_resource_no_status(std::string name) {
  TestResourceNoStatus r;
  r.metadata.namespace_ = std::string(test_namespace);
  r.metadata.name = std::move(name);
  r.metadata.generation = 1;
  return r;
}

TestChild make_child(const TestResource& parent, std::string name, std::string image, bool controlled) {
  TestChild c;
  c.metadata.namespace_ = parent.metadata.namespace_;
  c.metadata.name = std::move(name);
  c.metadata.labels["app"] = parent.metadata.name;
  if (controlled) {
    rr::OwnerReference ref;
    ref.api_version = "testing.rrgen.dev/v1";
    ref.kind = "TestResource";
    ref.name = parent.metadata.name;
    ref.uid = parent.metadata.uid;
    ref.controller = true;
    ref.block_owner_deletion = true;
    c.metadata.owner_references.push_back(ref);
  }
  c.spec.emplace();
  c.spec->image = std::move(image);
  c.spec->mode = "standard";
  return c;
}

rr::Time terminating_since() { return rr::Time("2024-05-01T11:00:00Z"); }

std::string first_event(const Env& env) {
  const auto lines = env.recorder->lines();
  return lines.empty() ? std::string() : lines.front();
}

}  // namespace coretest
