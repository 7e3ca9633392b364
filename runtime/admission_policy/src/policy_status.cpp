#include "rr/admission_policy/policy_status.hpp"

#include <atomic>
#include <set>
#include <stdexcept>
#include <thread>

#include "compiled_policy.hpp"
#include "rr/admission_policy/validating_policy.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"
#include "type_checking.hpp"

namespace rr::admission_policy {

namespace {
const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};
}  // namespace

Json policy_status(const Json& policy, const std::vector<KindInfo>& served, const SchemaResolver& resolve) {
  const detail::CompiledPolicy compiled = detail::compile_policy(policy);
  Json warnings = Json::array();
  std::set<std::string> checked;
  for (const auto& w : detail::type_check(policy, served, resolve)) {
    checked.insert(w.field_ref);
    warnings.push_back(Json{{"fieldRef", w.field_ref}, {"warning", w.warning}});
  }
  // What does not compile even untyped (the API server refuses it when the policy is written;
  // kept for what type checking did not cover: other expressions, kinds without a schema).
  for (const auto& w : detail::expression_warnings(compiled)) {
    if (!checked.contains(w.field_ref)) warnings.push_back(Json{{"fieldRef", w.field_ref}, {"warning", w.warning}});
  }
  Json type_checking = Json::object();
  if (!warnings.empty()) type_checking["expressionWarnings"] = std::move(warnings);
  return Json{{"observedGeneration", compiled.generation}, {"typeChecking", std::move(type_checking)}};
}

struct PolicyStatusWriter::State {
  std::shared_ptr<Cluster> cluster;
  SchemaResolver resolve;
  KindInfo kind;
  std::unique_ptr<Watch> watch;
  std::unique_ptr<Watch> crd_watch;  // with a resolver: a CRD's change re-checks every policy
  std::thread thread;
  std::atomic<bool> stopping{false};

  // Writes the status when it differs; a conflict is settled by the event the newer write makes.
  void settle(const Json& policy) {
    const Json desired = resolve ? policy_status(policy, cluster->kinds(), resolve) : policy_status(policy);
    const Json current = policy.value("status", Json::object());
    if (current.value("observedGeneration", Json()) == desired["observedGeneration"] &&
        current.value("typeChecking", Json()) == desired["typeChecking"]) {
      return;
    }
    Json updated = policy;
    updated["status"] = current;
    updated["status"]["observedGeneration"] = desired["observedGeneration"];
    updated["status"]["typeChecking"] = desired["typeChecking"];
    try {
      cluster->update_status(kind, updated);
    } catch (const ApiError&) {
      // Conflict or gone: a later event carries the newer object.
    }
  }

  // Every stored policy again (a CRD appeared, changed or went: the kinds it types did).
  void settle_all() {
    try {
      const Json list = cluster->list(kind, ListOptions{});
      for (const Json& policy : list.value("items", Json::array())) settle(policy);
    } catch (const ApiError&) {
      // The cluster is going away.
    }
  }

  void run() {
    const auto wait = std::chrono::milliseconds(crd_watch ? 100 : 200);
    while (!stopping) {
      if (crd_watch) {
        bool crd_changed = false;
        // Several CRD events in a row (an install of many) settle the policies once.
        while (auto crd_event = crd_watch->next(std::chrono::milliseconds(crd_changed ? 20 : 0))) {
          crd_changed = crd_changed || crd_event->type != WatchEventType::Bookmark;
        }
        if (crd_changed) settle_all();
      }
      auto event = watch->next(wait);
      if (!event) {
        if (watch->stopped()) return;
        continue;
      }
      if (event->type == WatchEventType::Added || event->type == WatchEventType::Modified) settle(event->object);
    }
  }
};

PolicyStatusWriter::PolicyStatusWriter(std::shared_ptr<Cluster> cluster, SchemaResolver resolve)
    : state_(std::make_shared<State>()) {
  auto kind = cluster->find_kind(validating_policy_gvk);
  if (!kind) throw std::invalid_argument("PolicyStatusWriter needs the v1 ValidatingAdmissionPolicy kind");
  state_->cluster = std::move(cluster);
  state_->resolve = std::move(resolve);
  state_->kind = *kind;
  if (auto crds = state_->cluster->find_kind(crd_gvk); crds && state_->resolve) {
    ListOptions from_now;
    from_now.resource_version =
        state_->cluster->list(*crds, ListOptions{}).value("/metadata/resourceVersion"_json_pointer, std::string());
    state_->crd_watch = state_->cluster->watch(*crds, from_now);
  }
  state_->watch = state_->cluster->watch(state_->kind, ListOptions{});
  state_->thread = std::thread([state = state_.get()] { state->run(); });
}

PolicyStatusWriter::~PolicyStatusWriter() { stop(); }

void PolicyStatusWriter::stop() {
  if (state_->stopping.exchange(true)) return;
  state_->watch->stop();
  if (state_->crd_watch) state_->crd_watch->stop();
  if (state_->thread.joinable()) state_->thread.join();
}

}  // namespace rr::admission_policy
