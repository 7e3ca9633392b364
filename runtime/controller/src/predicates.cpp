// The predicates of rr/controller/predicates.hpp, as controller-runtime's predicate package
// decides them.
#include "rr/controller/predicates.hpp"

#include <cstdint>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>

#include "rr/client/label_selector.hpp"
#include "rr/core/json.hpp"

namespace rr {

namespace {

const Json* metadata_member(const Json& object, const char* name) {
  auto meta = object.find("metadata");
  if (meta == object.end() || !meta->is_object()) return nullptr;
  auto member = meta->find(name);
  return member == meta->end() || member->is_null() ? nullptr : &*member;
}

// Go's maps.Equal of two string maps of the metadata: an absent map equals an empty one.
bool same_map(const Json& a, const Json& b, const char* name) {
  static const Json empty = Json::object();
  const Json* x = metadata_member(a, name);
  const Json* y = metadata_member(b, name);
  return (x ? *x : empty) == (y ? *y : empty);
}

std::string string_member(const Json& object, const char* name) {
  const Json* member = metadata_member(object, name);
  return member && member->is_string() ? member->get<std::string>() : std::string();
}

std::map<std::string, std::string> predicate_labels(const Json& object) {
  std::map<std::string, std::string> out;
  const Json* labels = metadata_member(object, "labels");
  if (!labels || !labels->is_object()) return out;
  for (auto it = labels->begin(); it != labels->end(); ++it)
    if (it->is_string()) out.emplace(it.key(), it->get<std::string>());
  return out;
}

Predicate update_only(std::function<bool(const Json& old_object, const Json& new_object)> update) {
  Predicate p;
  p.update = std::move(update);
  return p;
}

Predicate member_changed(const char* name) {
  return update_only(
      [name](const Json& old_object, const Json& new_object) { return !same_map(old_object, new_object, name); });
}

}  // namespace

bool Predicate::passes(const PredicateEvent& event) const {
  switch (event.type) {
    case EventType::Create: return !create || create(event.object);
    case EventType::Update:
      // controller-runtime's built-in predicates refuse an update without its old object.
      if (!update) return true;
      return event.old_object != nullptr && update(*event.old_object, event.object);
    case EventType::Delete: return !delete_ || delete_(event.object);
    case EventType::Generic: return !generic || generic(event.object);
  }
  return true;
}

bool all_pass(const std::vector<Predicate>& predicates, const PredicateEvent& event) {
  for (const Predicate& p : predicates)
    if (!p.passes(event)) return false;
  return true;
}

namespace predicates {

Predicate generation_changed() {
  return update_only([](const Json& old_object, const Json& new_object) {
    const Json* a = metadata_member(old_object, "generation");
    const Json* b = metadata_member(new_object, "generation");
    const auto value = [](const Json* g) { return g && g->is_number_integer() ? g->get<std::int64_t>() : 0; };
    return value(a) != value(b);
  });
}

Predicate label_changed() { return member_changed("labels"); }
Predicate annotation_changed() { return member_changed("annotations"); }

Predicate resource_version_changed() {
  return update_only([](const Json& old_object, const Json& new_object) {
    return string_member(old_object, "resourceVersion") != string_member(new_object, "resourceVersion");
  });
}

Predicate filter(std::function<bool(const Json& object)> keep) {
  if (!keep) throw std::invalid_argument("rr::predicates::filter needs a function");
  Predicate p;
  p.create = keep;
  p.update = [keep](const Json&, const Json& new_object) { return keep(new_object); };
  p.delete_ = keep;
  p.generic = std::move(keep);
  return p;
}

Predicate label_selector(const LabelSelector& selector) {
  return filter([s = Selector::from(selector)](const Json& object) { return s.matches(predicate_labels(object)); });
}

Predicate label_selector(std::string_view selector) {
  return filter([s = Selector::parse(selector)](const Json& object) { return s.matches(predicate_labels(object)); });
}

Predicate hook(std::function<bool(const PredicateEvent& event)> decide) {
  if (!decide) throw std::invalid_argument("rr::predicates::hook needs a function");
  auto d = std::make_shared<const std::function<bool(const PredicateEvent&)>>(std::move(decide));
  Predicate p;
  p.create = [d](const Json& o) { return (*d)(PredicateEvent{EventType::Create, nullptr, o}); };
  p.update = [d](const Json& old_object, const Json& new_object) {
    return (*d)(PredicateEvent{EventType::Update, &old_object, new_object});
  };
  p.delete_ = [d](const Json& o) { return (*d)(PredicateEvent{EventType::Delete, nullptr, o}); };
  p.generic = [d](const Json& o) { return (*d)(PredicateEvent{EventType::Generic, nullptr, o}); };
  return p;
}

Predicate all_of(std::vector<Predicate> predicates) {
  auto all = std::make_shared<const std::vector<Predicate>>(std::move(predicates));
  return hook([all](const PredicateEvent& event) { return all_pass(*all, event); });
}

Predicate any_of(std::vector<Predicate> predicates) {
  auto any = std::make_shared<const std::vector<Predicate>>(std::move(predicates));
  return hook([any](const PredicateEvent& event) {
    for (const Predicate& p : *any)
      if (p.passes(event)) return true;
    return false;  // controller-runtime's Or of nothing passes nothing
  });
}

Predicate negate(Predicate predicate) {
  auto inner = std::make_shared<const Predicate>(std::move(predicate));
  return hook([inner](const PredicateEvent& event) { return !inner->passes(event); });
}

}  // namespace predicates
}  // namespace rr
