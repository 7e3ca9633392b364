// Predicates: which watch events reach a controller's event handler (controller-runtime's
// `predicate` package). A predicate answers per event type; an empty member passes the event, as
// predicate.Funcs does. A controller applies them to its For, Owns and Tracked watches
// (ControllerOptions::predicates), to mapped watches and to channel sources (rr/controller/sources.hpp).
// See docs/runtime/39-predicates-and-watches.md.
//
//   rr::ControllerOptions options;
//   options.predicates.push_back(rr::WatchPredicates::for_kind({rr::predicates::generation_changed()}));
#pragma once
#include <functional>
#include <string_view>
#include <vector>

#include "rr/core/fwd.hpp"

namespace rr {

struct LabelSelector;

// Which kind of event: Generic is an event from outside the informers (a channel source).
enum class EventType { Create, Update, Delete, Generic };

// One event as a hook predicate sees it: `object` is the new object of an update; `old_object` is
// set on updates only.
struct PredicateEvent {
  EventType type = EventType::Generic;
  const Json* old_object = nullptr;
  const Json& object;
};

// controller-runtime's predicate.Funcs.
struct Predicate {
  std::function<bool(const Json& object)> create{};
  std::function<bool(const Json& old_object, const Json& new_object)> update{};
  std::function<bool(const Json& object)> delete_{};
  std::function<bool(const Json& object)> generic{};

  bool passes(const PredicateEvent& event) const;
};

// True when every predicate passes the event (none: true).
bool all_pass(const std::vector<Predicate>& predicates, const PredicateEvent& event);

namespace predicates {

// GenerationChangedPredicate: updates pass only when metadata.generation changed (a status or
// metadata-only update does not change it); creates, deletes and generic events pass.
Predicate generation_changed();
// LabelChangedPredicate / AnnotationChangedPredicate: updates pass only when the labels (the
// annotations) differ; other events pass.
Predicate label_changed();
Predicate annotation_changed();
// ResourceVersionChangedPredicate: updates pass only when metadata.resourceVersion changed (a
// resync's update does not); other events pass.
Predicate resource_version_changed();
// LabelSelectorPredicate: every event passes when the object's labels (the new object's on
// updates) match. Throws std::invalid_argument on a selector Kubernetes would refuse.
Predicate label_selector(const LabelSelector& selector);
Predicate label_selector(std::string_view selector);  // the string grammar: "app=web,tier in (a,b)"
// NewPredicateFuncs: one filter of the object for every event type (the new object on updates).
Predicate filter(std::function<bool(const Json& object)> keep);
// A custom hook over every event type with the old and new objects.
Predicate hook(std::function<bool(const PredicateEvent& event)> decide);
// And, Or, Not.
Predicate all_of(std::vector<Predicate> predicates);
Predicate any_of(std::vector<Predicate> predicates);
Predicate negate(Predicate predicate);

}  // namespace predicates
}  // namespace rr
