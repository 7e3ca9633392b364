// rr::ObjectStore: objects kept as compact text, read as shared immutable views.
#include <doctest/doctest.h>

#include "rr/client/client.hpp"
#include "rr/controller/informer_store.hpp"

using namespace rr;

namespace {

Json widget(const std::string& name, const std::string& color) {
  return Json{{"apiVersion", "example.dev/v1"},
              {"kind", "Widget"},
              {"metadata", {{"namespace", "default"}, {"name", name}}},
              {"spec", {{"color", color}}}};
}

}  // namespace

TEST_CASE("object store: readers share one decoded view while one of them holds it") {
  ObjectStore store(0);
  store.upsert(widget("a", "red"));
  auto first = store.get({"default", "a"});
  REQUIRE(first);
  CHECK(store.get({"default", "a"}) == first);          // the same DOM, not a copy
  CHECK(store.list().front() == first);                 // lists hand out the same view
  CHECK(store.by_index(namespace_index, "default").front() == first);
  CHECK(*first == widget("a", "red"));
}

TEST_CASE("object store: a view outlives the update and the delete of its object, unchanged") {
  ObjectStore store;
  store.upsert(widget("a", "red"));
  auto old_view = store.get({"default", "a"});
  auto previous = store.upsert(widget("a", "blue"));
  CHECK(previous == old_view);  // the previous object handed back is the view readers had
  CHECK((*old_view)["spec"]["color"] == "red");
  auto new_view = store.get({"default", "a"});
  CHECK(new_view != old_view);
  CHECK((*new_view)["spec"]["color"] == "blue");
  auto erased = store.erase({"default", "a"});
  REQUIRE(erased);
  CHECK((*erased)["spec"]["color"] == "blue");
  CHECK_FALSE(store.get({"default", "a"}));
  CHECK((*old_view)["spec"]["color"] == "red");
  CHECK((*new_view)["spec"]["color"] == "blue");
}

TEST_CASE("object store: keeps the compact JSON text of each object, decoded again when no view is held") {
  ObjectStore store;
  store.upsert(widget("a", "red"));
  store.upsert(widget("b", "green"));
  const std::size_t a_size = widget("a", "red").dump().size();
  const std::size_t b_size = widget("b", "green").dump().size();
  CHECK(store.text_bytes() == a_size + b_size);
  store.upsert(widget("a", "yellow"));
  CHECK(store.text_bytes() == widget("a", "yellow").dump().size() + b_size);
  store.erase({"default", "b"});
  CHECK(store.text_bytes() == widget("a", "yellow").dump().size());
  // Nobody holds a view: the next read decodes the text again, to an equal object.
  CHECK(*store.get({"default", "a"}) == widget("a", "yellow"));
}

TEST_CASE("object store: indexes added later run over the decoded objects") {
  ObjectStore store;
  store.upsert(widget("a", "red"));
  store.upsert(widget("b", "blue"));
  store.add_index("color", [](const Json& o) { return std::vector<std::string>{o["spec"]["color"].get<std::string>()}; });
  REQUIRE(store.by_index("color", "blue").size() == 1);
  CHECK(key_of(*store.by_index("color", "blue").front()).name == "b");
  store.upsert(widget("a", "blue"));
  CHECK(store.by_index("color", "blue").size() == 2);
  CHECK(store.index_values("color") == std::vector<std::string>{"blue"});
}

TEST_CASE("object store: stored objects for copies come from the held view, else from the text") {
  ObjectStore store(0);  // no views kept for later reads
  store.upsert(widget("a", "red"));
  store.upsert(widget("b", "blue"));
  auto cold = store.get_stored({"default", "a"});
  REQUIRE(cold);
  CHECK_FALSE(cold->view);  // nobody holds a view: only the text
  REQUIRE(cold->text);
  CHECK(*cold->text == widget("a", "red").dump());
  CHECK(cold->copy() == widget("a", "red"));
  auto view = store.get({"default", "a"});
  auto warm = store.get_stored({"default", "a"});
  CHECK(warm->view == view);
  CHECK(warm->copy() == widget("a", "red"));
  CHECK_FALSE(store.get_stored({"default", "missing"}));
  CHECK(store.list_stored().size() == 2);
  CHECK(store.by_index_stored(namespace_index, "default").size() == 2);
  CHECK(store.by_index_stored(namespace_index, "other").empty());
  CHECK_THROWS_AS(store.by_index_stored("nope", "x"), std::invalid_argument);
  CHECK(store.keys() == std::set<ObjectKey>{{"default", "a"}, {"default", "b"}});
  // A stored object outlives the update of its key.
  store.upsert(widget("b", "green"));
  CHECK(store.list_stored()[1].copy() == widget("b", "green"));
  CHECK(cold->copy() == widget("a", "red"));
}

TEST_CASE("object store: the views read last stay decoded within the budget, oldest out first") {
  const std::size_t one = widget("a", "red").dump().size();
  REQUIRE(widget("b", "red").dump().size() == one);
  ObjectStore store(one);  // room for one object's view
  store.upsert(widget("a", "red"));
  store.upsert(widget("b", "red"));
  std::weak_ptr<const Json> a = store.get({"default", "a"});
  CHECK_FALSE(a.expired());  // kept although no reader holds it
  CHECK(store.get_stored({"default", "a"})->view == a.lock());
  std::weak_ptr<const Json> b = store.get_stored({"default", "b"})->view;  // decoding for a copy keeps it too
  CHECK_FALSE(b.expired());
  CHECK(a.expired());  // a made room for b
  // Without a budget nothing is kept.
  ObjectStore none(0);
  none.upsert(widget("a", "red"));
  std::weak_ptr<const Json> dropped = none.get({"default", "a"});
  CHECK(dropped.expired());
  CHECK_FALSE(none.get_stored({"default", "a"})->view);
}
