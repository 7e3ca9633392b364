// Schemas that contain themselves (tests/golden/cases/openapi_recursive/input.json, generated at
// build time): a member held through rr::Box, lists and maps of the type itself, a nested object
// pointing back, and a cycle through two definitions. They must behave as values: lossless round
// trip, deep copies, equality by value, defaults and validation reaching every depth.
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "recursive_types_types.hpp"
#include "rr/core/json.hpp"

using rec::com::example::trees::v1::Forest;
using rec::com::example::trees::v1::Node;
using rec::com::example::trees::v1::Tree;

namespace {

constexpr const char* kDeep =
    R"({"apiVersion":"trees.example.com/v1","kind":"Tree","metadata":{"name":"t"},"spec":{)"
    R"("label":"root","not":{"label":"negated","not":{"label":"twice"}},)"
    R"("children":[{"label":"a","children":[{"label":"a1"}]},{"label":"b"}],)"
    R"("named":{"x":{"label":"x","named":{"y":{"label":"y"}}}},)"
    R"("link":{"rel":"up","target":{"label":"target"}},)"
    R"("forest":{"first":{"label":"f"},"trees":[{"label":"t1"}],"byName":{"n":{"label":"n"}}},)"
    R"("future":{"kept":true}}})";

bool has_error(const std::vector<rr::FieldError>& errors, const std::string& path) {
  return std::any_of(errors.begin(), errors.end(), [&](const rr::FieldError& e) { return e.path == path; });
}

}  // namespace

TEST_CASE("a schema that contains itself round-trips losslessly at every depth") {
  const Tree t = Tree::from_json_text(kDeep);
  CHECK(rr::Json::parse(t.to_json_text()) == rr::Json::parse(kDeep));
  REQUIRE(t.spec);
  const Node& root = *t.spec;
  CHECK((*root.not_)->label == "negated");
  CHECK((*(*root.not_)->not_)->label == "twice");
  CHECK((*root.children)[0].children->at(0).label == "a1");
  CHECK(root.named->at("x").named->at("y").label == "y");
  CHECK((*root.link->target)->label == "target");
  CHECK((*root.forest->first)->label == "f");
  CHECK(root.forest->trees->at(0)->label == "t1");
  CHECK(root.forest->by_name->at("n")->label == "n");
}

TEST_CASE("copies of a recursive value are deep, and equality compares values") {
  const Tree original = Tree::from_json_text(kDeep);
  Tree copy = original;
  CHECK(copy == original);
  (*copy.spec->not_)->label = "changed";
  CHECK((*original.spec->not_)->label == "negated");
  CHECK_FALSE(copy == original);
  copy = original;
  CHECK(copy == original);
  Node added;
  added.label = "new";
  (*copy.spec->forest->first)->children.emplace().push_back(added);
  CHECK_FALSE(copy == original);
  CHECK_FALSE((*original.spec->forest->first)->children.has_value());

  Tree moved = std::move(copy);
  CHECK((*moved.spec->forest->first)->children->size() == 1);
}

TEST_CASE("an empty box reads as the default value and allocates on its first write") {
  rr::Box<Node> box;
  CHECK(box->label.empty());
  CHECK(box == rr::Box<Node>(Node{}));
  box->label = "written";
  CHECK(box.get().label == "written");
  const rr::Box<Node> copy = box;
  CHECK(copy->label == "written");
}

TEST_CASE("defaults are applied inside boxes, lists and maps of the type itself") {
  Tree t = Tree::from_json_text(kDeep);
  t.apply_defaults();
  CHECK(t.spec->weight == 1);
  CHECK((*(*t.spec->not_)->not_)->weight == 1);
  CHECK(t.spec->children->at(0).children->at(0).weight == 1);
  CHECK(t.spec->named->at("x").named->at("y").weight == 1);
  CHECK((*t.spec->link->target)->weight == 1);
  CHECK(t.spec->forest->by_name->at("n")->weight == 1);
}

TEST_CASE("validation reaches every depth and names the path") {
  Tree t = Tree::from_json_text(kDeep);
  CHECK(t.validate().empty());
  (*(*t.spec->not_)->not_)->label = "";
  t.spec->forest->trees->at(0)->label = "";
  t.spec->named->at("x").named->at("y").label = "";
  const auto errors = t.validate();
  CHECK(has_error(errors, "spec.not.not.label"));
  CHECK(has_error(errors, "spec.forest.trees[0].label"));
  CHECK(has_error(errors, "spec.named[x].named[y].label"));
}

TEST_CASE("a required member missing deep inside decodes, and validate() reports it at its path") {
  const Tree t = Tree::from_json_text(R"({"spec":{"label":"r","not":{"not":{}}}})");
  CHECK(rr::Json::parse(t.to_json_text())["spec"] == rr::Json::parse(R"({"label":"r","not":{"not":{}}})"));
  const auto errors = t.validate();
  CHECK(std::any_of(errors.begin(), errors.end(),
                    [](const rr::FieldError& e) { return e.message == "spec.not.not.label: Required value"; }));
}
