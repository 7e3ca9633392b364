#include "rr/admission_policy/policy_status.hpp"

#include <atomic>
#include <stdexcept>
#include <thread>

#include "compiled_policy.hpp"
#include "rr/admission_policy/validating_policy.hpp"
#include "rr/client/api_error.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::admission_policy {

Json policy_status(const Json& policy) {
  const detail::CompiledPolicy compiled = detail::compile_policy(policy);
  Json warnings = Json::array();
  for (const auto& w : detail::expression_warnings(compiled)) {
    warnings.push_back(Json{{"fieldRef", w.field_ref}, {"warning", w.warning}});
  }
  Json type_checking = Json::object();
  if (!warnings.empty()) type_checking["expressionWarnings"] = std::move(warnings);
  return Json{{"observedGeneration", compiled.generation}, {"typeChecking", std::move(type_checking)}};
}

struct PolicyStatusWriter::State {
  std::shared_ptr<Cluster> cluster;
  KindInfo kind;
  std::unique_ptr<Watch> watch;
  std::thread thread;
  std::atomic<bool> stopping{false};

  // Writes the status when it differs; a conflict is settled by the event the newer write makes.
  void settle(const Json& policy) {
    const Json desired = policy_status(policy);
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

  void run() {
    while (!stopping) {
      auto event = watch->next(std::chrono::milliseconds(200));
      if (!event) {
        if (watch->stopped()) return;
        continue;
      }
      if (event->type == WatchEventType::Added || event->type == WatchEventType::Modified) settle(event->object);
    }
  }
};

PolicyStatusWriter::PolicyStatusWriter(std::shared_ptr<Cluster> cluster) : state_(std::make_shared<State>()) {
  auto kind = cluster->find_kind(validating_policy_gvk);
  if (!kind) throw std::invalid_argument("PolicyStatusWriter needs the v1 ValidatingAdmissionPolicy kind");
  state_->cluster = std::move(cluster);
  state_->kind = *kind;
  state_->watch = state_->cluster->watch(state_->kind, ListOptions{});
  state_->thread = std::thread([state = state_.get()] { state->run(); });
}

PolicyStatusWriter::~PolicyStatusWriter() { stop(); }

void PolicyStatusWriter::stop() {
  if (state_->stopping.exchange(true)) return;
  state_->watch->stop();
  if (state_->thread.joinable()) state_->thread.join();
}

}  // namespace rr::admission_policy
