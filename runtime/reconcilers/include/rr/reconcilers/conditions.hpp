// ConditionSet / ConditionManager (reconciler.io apis, Knative style): a happy condition
// ("Ready" for living resources, "Succeeded" for batch ones) aggregated from dependents.
#pragma once
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "rr/core/meta.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {

inline constexpr std::string_view condition_ready = "Ready";
inline constexpr std::string_view condition_succeeded = "Succeeded";

class ConditionManager;

class ConditionSet {
 public:
  // Happy type "Ready" (reason "Ready" when happy); duplicates and the happy type itself are
  // dropped from the dependents.
  static ConditionSet living(std::vector<std::string> dependents);
  static ConditionSet living_with_happy_reason(std::string happy_reason, std::vector<std::string> dependents);
  static ConditionSet batch(std::vector<std::string> dependents);  // happy type "Succeeded"
  static ConditionSet batch_with_happy_reason(std::string happy_reason, std::vector<std::string> dependents);

  const std::string& happy_type() const noexcept { return happy_; }
  const std::string& happy_reason() const noexcept { return happy_reason_; }
  const std::vector<std::string>& dependents() const noexcept { return dependents_; }

  // Manages `conditions` in place; `now` stamps lastTransitionTime (truncated to seconds);
  // `generation` (when set) is written as each condition's observedGeneration.
  ConditionManager manage(std::vector<Condition>& conditions, std::chrono::system_clock::time_point now,
                          std::optional<std::int64_t> generation = std::nullopt) const;

 private:
  std::string happy_;
  std::string happy_reason_;
  std::vector<std::string> dependents_;
};

class ConditionManager {
 public:
  ConditionManager(const ConditionSet& set, std::vector<Condition>& conditions,
                   std::chrono::system_clock::time_point now, std::optional<std::int64_t> generation);
  // Adds the happy condition (Unknown, reason "Initializing") when missing, and each missing
  // dependent (True when happy is True, else Unknown; reason "Initializing").
  void initialize();
  void mark_true(std::string_view type, std::string reason, std::string message = {});
  void mark_false(std::string_view type, std::string reason, std::string message);
  void mark_unknown(std::string_view type, std::string reason, std::string message);
  // Removes a non-terminal condition; a dependent or the happy type → error.
  Error clear(std::string_view type);
  const Condition* get(std::string_view type) const;
  const Condition* happy() const { return get(set_.happy_type()); }
  bool is_happy() const;
  // Sets a condition as given (only when something other than the time changed), sorted by type.
  void set(Condition c);

 private:
  ConditionSet set_;  // a copy: a manager may outlive a temporary set (living({...}).manage(...))
  std::vector<Condition>& conditions_;
  std::chrono::system_clock::time_point now_;
  std::optional<std::int64_t> generation_;
};

bool condition_is_true(const Condition* c) noexcept;
bool condition_is_false(const Condition* c) noexcept;
bool condition_is_unknown(const Condition* c) noexcept;  // nullptr counts as unknown
const Condition* find_condition(const std::vector<Condition>& conditions, std::string_view type) noexcept;

}  // namespace rr
