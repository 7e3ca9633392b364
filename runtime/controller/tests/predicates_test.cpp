// Predicates (rr/controller/predicates.hpp) event by event, as controller-runtime's predicate
// package decides them, and the filtered handlers a controller puts on its informers.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "controller_handlers.hpp"
#include "rr/controller/predicates.hpp"
#include "rr/core/json.hpp"
#include "rr/core/meta.hpp"

using namespace rr;

namespace {

Json object(int generation, Json labels = nullptr, Json annotations = nullptr, std::string version = "1") {
  Json o{{"apiVersion", "v1"},
         {"kind", "ConfigMap"},
         {"metadata", {{"namespace", "ns"}, {"name", "o"}, {"generation", generation}, {"resourceVersion", version}}}};
  if (!labels.is_null()) o["metadata"]["labels"] = std::move(labels);
  if (!annotations.is_null()) o["metadata"]["annotations"] = std::move(annotations);
  return o;
}

bool create(const Predicate& p, const Json& o) { return p.passes({EventType::Create, nullptr, o}); }
bool update(const Predicate& p, const Json& a, const Json& b) { return p.passes({EventType::Update, &a, b}); }
bool remove(const Predicate& p, const Json& o) { return p.passes({EventType::Delete, nullptr, o}); }
bool generic(const Predicate& p, const Json& o) { return p.passes({EventType::Generic, nullptr, o}); }

}  // namespace

TEST_CASE("predicates: GenerationChanged filters updates that keep the generation, passes the rest") {
  const Predicate p = predicates::generation_changed();
  const Json v1 = object(1), v1_labelled = object(1, {{"a", "b"}}, nullptr, "2"), v2 = object(2, nullptr, nullptr, "3");
  CHECK_FALSE(update(p, v1, v1_labelled));  // a label-only update
  CHECK_FALSE(update(p, v1, v1));           // a resync
  CHECK(update(p, v1, v2));
  CHECK(create(p, v1));
  CHECK(remove(p, v1));
  CHECK(generic(p, v1));
  CHECK_FALSE(p.passes({EventType::Update, nullptr, v2}));  // no old object: refused, as controller-runtime
}

TEST_CASE("predicates: label, annotation and resourceVersion changes") {
  const Json plain = object(1), labelled = object(1, {{"app", "web"}}), relabelled = object(1, {{"app", "db"}});
  const Json empty_labels = object(1, Json::object()), annotated = object(1, nullptr, {{"note", "x"}});
  const Predicate labels = predicates::label_changed();
  CHECK(update(labels, plain, labelled));
  CHECK(update(labels, labelled, relabelled));
  CHECK_FALSE(update(labels, labelled, labelled));
  CHECK_FALSE(update(labels, plain, empty_labels));  // maps.Equal: no labels equals empty labels
  CHECK_FALSE(update(labels, plain, annotated));
  CHECK(create(labels, plain));

  const Predicate annotations = predicates::annotation_changed();
  CHECK(update(annotations, plain, annotated));
  CHECK_FALSE(update(annotations, plain, labelled));

  const Predicate versions = predicates::resource_version_changed();
  CHECK_FALSE(update(versions, plain, plain));
  CHECK(update(versions, plain, object(1, nullptr, nullptr, "2")));
  CHECK(remove(versions, plain));
}

TEST_CASE("predicates: a label selector filters every event type by the (new) object's labels") {
  const Json web = object(1, {{"app", "web"}, {"tier", "front"}}), db = object(1, {{"app", "db"}}), none = object(1);
  const Predicate p = predicates::label_selector("app=web,tier in (front,back)");
  CHECK(create(p, web));
  CHECK_FALSE(create(p, db));
  CHECK_FALSE(create(p, none));
  CHECK(update(p, db, web));
  CHECK_FALSE(update(p, web, db));
  CHECK(remove(p, web));
  CHECK_FALSE(generic(p, db));

  LabelSelector selector;
  selector.match_labels = std::map<std::string, std::string>{{"app", "db"}};
  selector.match_expressions = std::vector<LabelSelectorRequirement>{{"tier", "DoesNotExist", std::nullopt, {}}};
  const Predicate q = predicates::label_selector(selector);
  CHECK(create(q, db));
  CHECK_FALSE(create(q, web));
  CHECK_THROWS_AS(predicates::label_selector("app in"), std::invalid_argument);
}

TEST_CASE("predicates: And, Or, Not, a custom hook, and empty members passing") {
  const Json v1 = object(1), v1_labelled = object(1, {{"a", "b"}}), v2 = object(2);
  const Predicate either = predicates::any_of({predicates::generation_changed(), predicates::label_changed()});
  CHECK(update(either, v1, v1_labelled));
  CHECK(update(either, v1, v2));
  CHECK_FALSE(update(either, v1, v1));
  const Predicate both = predicates::all_of({predicates::generation_changed(), predicates::label_changed()});
  CHECK_FALSE(update(both, v1, v1_labelled));
  CHECK(update(both, v1, object(2, {{"a", "b"}})));
  CHECK_FALSE(update(predicates::negate(predicates::generation_changed()), v1, v2));
  CHECK_FALSE(create(predicates::any_of({}), v1));  // Or of nothing passes nothing
  CHECK(create(predicates::all_of({}), v1));
  CHECK(create(Predicate{}, v1));

  std::vector<std::string> seen;
  const Predicate hook = predicates::hook([&](const PredicateEvent& e) {
    static const char* names[] = {"create", "update", "delete", "generic"};
    seen.push_back(std::string(names[static_cast<int>(e.type)]) + (e.old_object ? "+old" : ""));
    return e.type != EventType::Delete;
  });
  CHECK(create(hook, v1));
  CHECK(update(hook, v1, v2));
  CHECK_FALSE(remove(hook, v1));
  CHECK(generic(hook, v1));
  CHECK(seen == std::vector<std::string>{"create", "update+old", "delete", "generic"});
}

TEST_CASE("predicates: filtered handlers see only the events every predicate passes") {
  std::vector<std::string> calls;
  InformerHandlers inner{
      [&](const Json&) { calls.push_back("add"); },
      [&](const Json&, const Json&) { calls.push_back("update"); },
      [&](const Json&) { calls.push_back("delete"); },
      [&](const Json&) { calls.push_back("initial"); },
  };
  Predicate no_deletes;
  no_deletes.delete_ = [](const Json&) { return false; };
  auto handlers = controller_detail::filtered(inner, {predicates::generation_changed(), no_deletes});
  const Json v1 = object(1), v2 = object(2);
  handlers.on_initial_add(v1);
  handlers.on_add(v1);
  handlers.on_update(v1, object(1, {{"a", "b"}}));  // filtered: the generation stayed
  handlers.on_update(v1, v2);
  handlers.on_delete(v2);  // filtered by no_deletes
  CHECK(calls == std::vector<std::string>{"initial", "add", "update"});

  auto unfiltered = controller_detail::filtered(inner, {});
  unfiltered.on_delete(v1);
  CHECK(calls.back() == "delete");
}
