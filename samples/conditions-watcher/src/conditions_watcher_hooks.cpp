#include "conditions_watcher_hooks.hpp"

#include <algorithm>

namespace watcher {

std::string summary_of(const std::vector<rr::Condition>& conditions) {
  std::string out;
  for (const rr::Condition& c : conditions) {
    if (c.type == watched_condition) continue;
    if (!out.empty()) out += ", ";
    out += c.type + "=" + c.status;
  }
  return out;
}

rr::Error ConditionsWatcherHooks::mark_watched_sync(rr::Context& ctx, ConditionsOnly& conditions_only) const {
  // Only kinds that report conditions are watched.
  if (!conditions_only.status || !conditions_only.status->conditions) return {};
  auto& conditions = *conditions_only.status->conditions;
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
}

}  // namespace watcher
