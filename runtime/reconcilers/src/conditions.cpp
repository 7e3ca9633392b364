// ConditionSet / ConditionManager, after reconciler.io apis/conditionset.go (itself Knative's):
// the happy condition follows its dependents; writes that would only move the time are skipped.
#include "rr/reconcilers/conditions.hpp"

#include <algorithm>

namespace rr {

namespace {

constexpr std::string_view status_true = "True";
constexpr std::string_view status_false = "False";
constexpr std::string_view status_unknown = "Unknown";
constexpr std::string_view reason_initializing = "Initializing";

Condition condition(std::string_view type, std::string_view status, std::string reason, std::string message) {
  Condition c;
  c.type = std::string(type);
  c.status = std::string(status);
  c.reason = std::move(reason);
  c.message = std::move(message);
  return c;
}

// Duplicates and the happy type itself are dropped; the order is kept.
std::vector<std::string> dependents_without(const std::string& happy, std::vector<std::string> dependents) {
  std::vector<std::string> out;
  for (auto& d : dependents) {
    if (d == happy || std::find(out.begin(), out.end(), d) != out.end()) continue;
    out.push_back(std::move(d));
  }
  return out;
}

}  // namespace

ConditionSet ConditionSet::living(std::vector<std::string> dependents) {
  return living_with_happy_reason(std::string(condition_ready), std::move(dependents));
}

ConditionSet ConditionSet::living_with_happy_reason(std::string happy_reason, std::vector<std::string> dependents) {
  ConditionSet set;
  set.happy_ = std::string(condition_ready);
  set.happy_reason_ = std::move(happy_reason);
  set.dependents_ = dependents_without(set.happy_, std::move(dependents));
  return set;
}

ConditionSet ConditionSet::batch(std::vector<std::string> dependents) {
  return batch_with_happy_reason(std::string(condition_succeeded), std::move(dependents));
}

ConditionSet ConditionSet::batch_with_happy_reason(std::string happy_reason, std::vector<std::string> dependents) {
  ConditionSet set;
  set.happy_ = std::string(condition_succeeded);
  set.happy_reason_ = std::move(happy_reason);
  set.dependents_ = dependents_without(set.happy_, std::move(dependents));
  return set;
}

ConditionManager ConditionSet::manage(std::vector<Condition>& conditions, std::chrono::system_clock::time_point now,
                                      std::optional<std::int64_t> generation) const {
  return ConditionManager(*this, conditions, now, generation);
}

ConditionManager::ConditionManager(const ConditionSet& set, std::vector<Condition>& conditions,
                                   std::chrono::system_clock::time_point now, std::optional<std::int64_t> generation)
    : set_(set), conditions_(conditions), now_(now), generation_(generation) {}

const Condition* ConditionManager::get(std::string_view type) const { return find_condition(conditions_, type); }

bool ConditionManager::is_happy() const { return condition_is_true(happy()); }

void ConditionManager::set(Condition c) {
  if (generation_) c.observed_generation = generation_;
  auto existing = std::find_if(conditions_.begin(), conditions_.end(), [&](const Condition& e) { return e.type == c.type; });
  if (existing != conditions_.end()) {
    // Compare as if the time had not moved; members this struct does not model are kept.
    c.last_transition_time = existing->last_transition_time;
    c.unknown_fields = existing->unknown_fields;
    if (c == *existing) return;
    conditions_.erase(existing);
  }
  c.last_transition_time = Time::from(now_);
  conditions_.push_back(std::move(c));
  std::stable_sort(conditions_.begin(), conditions_.end(),
                   [](const Condition& a, const Condition& b) { return a.type < b.type; });
}

void ConditionManager::initialize() {
  if (!get(set_.happy_type())) set(condition(set_.happy_type(), status_unknown, std::string(reason_initializing), {}));
  // A True happy condition implies True dependents; otherwise they start Unknown.
  const std::string_view status = condition_is_true(happy()) ? status_true : status_unknown;
  for (const auto& dependent : set_.dependents()) {
    if (!get(dependent)) set(condition(dependent, status, std::string(reason_initializing), {}));
  }
}

void ConditionManager::mark_true(std::string_view type, std::string reason, std::string message) {
  set(condition(type, status_true, std::move(reason), std::move(message)));
  for (const auto& dependent : set_.dependents()) {
    if (!condition_is_true(get(dependent))) return;  // False or Unknown dependents trump True
  }
  set(condition(set_.happy_type(), status_true, set_.happy_reason(), {}));
}

void ConditionManager::mark_unknown(std::string_view type, std::string reason, std::string message) {
  set(condition(type, status_unknown, reason, message));
  bool is_dependent = false;
  for (const auto& dependent : set_.dependents()) {
    // A False dependent trumps Unknown: the happy condition must stay (or become) False.
    if (condition_is_false(get(dependent))) {
      if (!condition_is_false(happy())) mark_false(set_.happy_type(), std::move(reason), std::move(message));
      return;
    }
    if (dependent == type) is_dependent = true;
  }
  if (is_dependent) set(condition(set_.happy_type(), status_unknown, std::move(reason), std::move(message)));
}

void ConditionManager::mark_false(std::string_view type, std::string reason, std::string message) {
  const auto& deps = set_.dependents();
  const bool is_dependent = std::find(deps.begin(), deps.end(), type) != deps.end();
  set(condition(type, status_false, reason, message));
  if (is_dependent) set(condition(set_.happy_type(), status_false, std::move(reason), std::move(message)));
}

Error ConditionManager::clear(std::string_view type) {
  const auto& deps = set_.dependents();
  if (type == set_.happy_type() || std::find(deps.begin(), deps.end(), type) != deps.end()) {
    return Error::make("condition type \"" + std::string(type) +
                       "\" is terminal (the happy condition or one of its dependents) and cannot be cleared");
  }
  std::erase_if(conditions_, [&](const Condition& c) { return c.type == type; });
  return {};
}

bool condition_is_true(const Condition* c) noexcept { return c && c->status == status_true; }
bool condition_is_false(const Condition* c) noexcept { return c && c->status == status_false; }
bool condition_is_unknown(const Condition* c) noexcept { return !c || c->status == status_unknown; }

const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) noexcept {
  auto it = std::find_if(conditions.begin(), conditions.end(), [&](const Condition& c) { return c.type == type; });
  return it == conditions.end() ? nullptr : &*it;
}

}  // namespace rr
