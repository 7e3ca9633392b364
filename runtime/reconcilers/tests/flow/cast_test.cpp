#include "rr/reconcilers/cast.hpp"

#include <doctest/doctest.h>

#include "flow_support.hpp"

using namespace flowtest;

namespace {

// A duck type over the image part of TestResource: spec.image and status.latestImage. Like a Go
// duck whose TypeMeta is not decoded, it does not read apiVersion/kind.
struct ImageDuck {
  std::string api_version;
  std::string kind;
  rr::ObjectMeta metadata;
  std::string image;
  std::string latest_image;
};
void to_json(rr::Json& j, const ImageDuck& d) {
  j = rr::Json::object();
  if (!d.api_version.empty()) j["apiVersion"] = d.api_version;
  if (!d.kind.empty()) j["kind"] = d.kind;
  j["metadata"] = d.metadata;
  j["spec"] = rr::Json::object({{"image", d.image}});
  j["status"] = rr::Json::object({{"latestImage", d.latest_image}});
}
void from_json(const rr::Json& j, ImageDuck& d) {
  if (j.contains("metadata")) d.metadata = j.at("metadata").get<rr::ObjectMeta>();
  const rr::Json spec = j.value("spec", rr::Json::object());
  const rr::Json status = j.value("status", rr::Json::object());
  d.image = spec.value("image", std::string());
  d.latest_image = status.value("latestImage", std::string());
}

// The same duck, declared as a kind of its own.
struct TypedDuck : ImageDuck {};
void to_json(rr::Json& j, const TypedDuck& d) { to_json(j, static_cast<const ImageDuck&>(d)); }
void from_json(const rr::Json& j, TypedDuck& d) { from_json(j, static_cast<ImageDuck&>(d)); }

TestResource with_image(std::string image, std::optional<std::string> latest) {
  TestResource r;
  r.metadata.namespace_ = "default";
  r.metadata.name = "resource";
  r.metadata.labels["app"] = "web";
  r.spec.emplace();
  r.spec->image = std::move(image);
  r.spec->replicas = 3;
  if (latest) {
    r.status.emplace();
    r.status->latest_image = *latest;
    rr::Condition ready;
    ready.type = "Ready";
    ready.status = "True";
    ready.reason = "Ready";
    r.status->conditions = std::vector<rr::Condition>{ready};
  }
  return r;
}

// Copies spec.image to status.latestImage on the duck.
Step<ImageDuck> promote_image(rr::Outcome outcome = {}) {
  Step<ImageDuck> s;
  s.fn = [outcome](rr::Context&, ImageDuck& duck) {
    duck.latest_image = duck.image;
    return outcome;
  };
  return s;
}

}  // namespace

template <>
struct rr::ResourceTraits<TypedDuck> {
  static constexpr std::string_view group = "ducks.rrgen.dev";
  static constexpr std::string_view version = "v1";
  static constexpr std::string_view kind = "ImageRef";
  static constexpr std::string_view plural = "imagerefs";
  static constexpr std::string_view list_kind = "ImageRefList";
  static constexpr Scope scope = Scope::Namespaced;
  static constexpr bool has_status = true;
};

TEST_CASE("CastResource runs the nested reconciler on the cast and patches its changes back") {
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = promote_image(rr::Outcome{requeue()})};
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", "nginx:1");
  TestResource expected = r;
  expected.status->latest_image = "nginx:2";

  rr::Outcome out = cast.reconcile(ctx, r);
  CHECK(out.error.ok());
  CHECK(out.result == requeue());
  CHECK(r == expected);  // only latestImage moved: labels, replicas and conditions are intact
  CHECK(cast.display_name() == "CastResource");
}

TEST_CASE("CastResource patches the changes back even when the nested reconciler fails") {
  rr::Error failed = rr::Error::make("nested failed");
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = promote_image(failed)};
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", "nginx:1");
  rr::Outcome out = cast.reconcile(ctx, r);
  CHECK(out.error.same(failed));
  CHECK(r.status->latest_image == "nginx:2");
}

TEST_CASE("CastResource joins a patch that cannot apply with the nested error") {
  rr::Error failed = rr::Error::make("nested failed");
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = promote_image(failed)};
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", std::nullopt);  // no status: /status/latestImage cannot be replaced
  const TestResource before = r;
  rr::Outcome out = cast.reconcile(ctx, r);
  CHECK(out.error.is(failed));
  CHECK(out.error.message().find("CastResource: cannot patch the resource") != std::string::npos);
  CHECK(r == before);
}

TEST_CASE("CastResource leaves the resource alone when the cast is unchanged") {
  Step<ImageDuck> reader;
  std::string seen_image;
  reader.fn = [&](rr::Context&, ImageDuck& duck) {
    seen_image = duck.image;
    return rr::Outcome{};
  };
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = reader};
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", "nginx:1");
  r.unknown_fields.set("extra", "\"kept\"");
  const TestResource before = r;
  CHECK(cast.reconcile(ctx, r).error.ok());
  CHECK(seen_image == "nginx:2");
  CHECK(r == before);
}

TEST_CASE("CastResource defaults the cast's apiVersion and kind from the real resource") {
  std::string api_version;
  std::string kind;
  std::string name;
  Step<ImageDuck> reader;
  reader.fn = [&](rr::Context&, ImageDuck& duck) {
    api_version = duck.api_version;
    kind = duck.kind;
    name = duck.metadata.name;
    return rr::Outcome{};
  };
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = reader};
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", "nginx:1");
  CHECK(cast.reconcile(ctx, r).error.ok());
  CHECK(api_version == "testing.rrgen.dev/v1");
  CHECK(kind == "TestResource");
  CHECK(name == "resource");
}

TEST_CASE("CastResource stashes the cast type as the resource type when it is a kind") {
  rr::KindInfo seen;
  Step<TypedDuck> typed;
  typed.fn = [&](rr::Context& ctx, TypedDuck&) {
    seen = ctx.resource_type();
    return rr::Outcome{};
  };
  auto ctx = make_context();
  TestResource r = with_image("nginx:2", "nginx:1");

  rr::CastResource<TestResource, TypedDuck> cast{.reconciler = typed};
  CHECK(cast.reconcile(ctx, r).error.ok());
  CHECK(seen == rr::kind_info_of<TypedDuck>());
  CHECK(ctx.resource_type() == resource_kind());  // restored

  Step<ImageDuck> untyped;
  untyped.fn = [&](rr::Context& c, ImageDuck&) {
    seen = c.resource_type();
    return rr::Outcome{};
  };
  rr::CastResource<TestResource, ImageDuck> duck{.reconciler = untyped};
  CHECK(duck.reconcile(ctx, r).error.ok());
  CHECK(seen == resource_kind());  // a duck that is not a kind keeps the real one
}

TEST_CASE("CastResource to the same type passes the resource through") {
  const TestResource* seen = nullptr;
  Step<> same;
  same.fn = [&](rr::Context&, TestResource& res) {
    seen = &res;
    res.metadata.labels["touched"] = "yes";
    return rr::Outcome{};
  };
  rr::CastResource<TestResource, TestResource> cast{.reconciler = same};
  auto ctx = make_context();
  TestResource r;
  CHECK(cast.reconcile(ctx, r).error.ok());
  CHECK(seen == &r);
  CHECK(r.metadata.labels.at("touched") == "yes");
}

TEST_CASE("CastResource validation and setup") {
  rr::CastResource<TestResource, ImageDuck> empty{};
  CHECK(findings(empty) == std::vector<std::string>{"CastResource: CastResource must implement reconciler"});
  Step<ImageDuck> watching;
  watching.watches = child_kind();
  rr::CastResource<TestResource, ImageDuck> cast{.reconciler = watching};
  CHECK(watches_of(cast).size() == 1);
}
