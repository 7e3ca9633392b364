#include "conditions_watcher.hpp"

#include <algorithm>
#include <stdexcept>

#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sync.hpp"

namespace watcher {

rr::GroupVersionKind parse_kind(std::string_view text) {
  const auto slash = text.rfind('/');
  if (slash == std::string_view::npos || slash == 0 || slash + 1 == text.size()) {
    throw std::invalid_argument("a kind is <apiVersion>/<Kind> (apps/v1/Deployment, v1/ConfigMap), not \"" +
                                std::string(text) + "\"");
  }
  return rr::GroupVersionKind::from(text.substr(0, slash), text.substr(slash + 1));
}

std::string summary_of(const std::vector<rr::Condition>& conditions) {
  std::string out;
  for (const rr::Condition& c : conditions) {
    if (c.type == watched_condition) continue;
    if (!out.empty()) out += ", ";
    out += c.type + "=" + c.status;
  }
  return out;
}

rr::SubReconciler<ConditionsOnly> mark_watched() {
  return rr::SyncReconciler<ConditionsOnly>{
      .name = "MarkWatched",
      .sync = [](rr::Context& ctx, ConditionsOnly& object) -> rr::Error {
        // Only kinds that report conditions are watched.
        if (!object.status || !object.status->conditions) return {};
        auto& conditions = *object.status->conditions;
        rr::Condition watched;
        watched.type = std::string(watched_condition);
        watched.status = "True";
        watched.reason = "Observed";
        watched.message = summary_of(conditions);
        watched.last_transition_time = ctx.now_time();  // the root restores it when nothing changed
        auto it = std::find_if(conditions.begin(), conditions.end(),
                               [](const rr::Condition& c) { return c.type == watched_condition; });
        if (it == conditions.end()) {
          conditions.push_back(std::move(watched));
        } else {
          watched.unknown_fields = it->unknown_fields;
          *it = std::move(watched);
        }
        return {};
      },
  };
}

rr::Reconciler conditions_watcher(const rr::Config& config, const rr::KindInfo& kind) {
  return rr::ResourceReconciler<ConditionsOnly>{
      .name = kind.gvk.kind + "Watcher",
      .reconciler = mark_watched(),
      .config = config,
      .type = kind,
  };
}

}  // namespace watcher
