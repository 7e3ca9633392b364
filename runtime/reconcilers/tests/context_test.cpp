#include <doctest/doctest.h>

#include <memory>
#include <string>
#include <vector>

#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/stop_token.hpp"

using namespace std::chrono_literals;

namespace {

struct CapturedLog {
  std::shared_ptr<std::vector<rr::LogRecord>> records = std::make_shared<std::vector<rr::LogRecord>>();
  rr::Logger logger() const {
    auto sink = std::make_shared<const rr::LogSink>([records = records](const rr::LogRecord& r) { records->push_back(r); });
    return rr::Logger(sink);
  }
};

const rr::KindInfo widget_kind{{"example.dev", "v1", "Widget"}, "widgets", "WidgetList"};
const rr::KindInfo gadget_kind{{"example.dev", "v1", "Gadget"}, "gadgets", "GadgetList"};

}  // namespace

TEST_CASE("Context: request, resource type, pinned now") {
  const auto pinned = std::chrono::system_clock::time_point{} + 1'700'000'000s + 750ms;
  rr::ContextOptions options;
  options.request = {"ns", "widget"};
  options.resource_type = widget_kind;
  options.now = pinned;
  rr::Context ctx(std::move(options));
  CHECK(ctx.request() == rr::ObjectKey{"ns", "widget"});
  CHECK(ctx.resource_type() == widget_kind);
  CHECK(ctx.original_resource_type() == widget_kind);
  CHECK(ctx.now() == pinned);
  CHECK(ctx.now_time().str() == "2023-11-14T22:13:20Z");  // truncated to seconds
  CHECK(ctx.now() == pinned);                             // stays pinned
}

TEST_CASE("Context: now defaults to the wall clock at construction") {
  const auto before = std::chrono::system_clock::now();
  rr::Context ctx{rr::ContextOptions{}};
  const auto after = std::chrono::system_clock::now();
  CHECK(ctx.now() >= before);
  CHECK(ctx.now() <= after);
}

TEST_CASE("Context: with_config / with_resource_type / with_log are scoped; originals stay") {
  rr::Config original;
  original.sync_period = 1h;
  rr::Config other;
  other.sync_period = 2h;
  CapturedLog captured;

  rr::ContextOptions options;
  options.config = original;
  options.resource_type = widget_kind;
  options.log = captured.logger().named("Root");
  rr::Context ctx(std::move(options));
  {
    auto config_scope = ctx.with_config(other);
    CHECK(ctx.config().sync_period == 2h);
    CHECK(ctx.original_config().sync_period == 1h);
    {
      auto type_scope = ctx.with_resource_type(gadget_kind);
      auto log_scope = ctx.with_log(ctx.log().named("Nested"));
      CHECK(ctx.resource_type() == gadget_kind);
      CHECK(ctx.original_resource_type() == widget_kind);
      CHECK(ctx.log().name() == "Root.Nested");
      CHECK(ctx.config().sync_period == 2h);  // the outer replacement is still in effect
    }
    CHECK(ctx.resource_type() == widget_kind);
    CHECK(ctx.log().name() == "Root");
    CHECK(ctx.config().sync_period == 2h);
  }
  CHECK(ctx.config().sync_period == 1h);
}

TEST_CASE("Context: additional configs and cancellation") {
  auto flag = std::make_shared<std::atomic<bool>>(false);
  rr::Config extra;
  extra.sync_period = 3h;
  rr::ContextOptions options;
  options.cancelled = flag;
  options.additional_configs = {{"other", extra}};
  rr::Context ctx(std::move(options));
  REQUIRE(ctx.additional_configs().count("other") == 1);
  CHECK(ctx.additional_configs().at("other").sync_period == 3h);
  CHECK_FALSE(ctx.cancelled());
  flag->store(true);
  CHECK(ctx.cancelled());

  rr::Context never{rr::ContextOptions{}};
  CHECK_FALSE(never.cancelled());
  CHECK_FALSE(rr::stop_token_of(never).stop_possible());
  CHECK_FALSE(never.deadline());
}

TEST_CASE("Context: the stop token (a controller's stop or reconcile timeout) cancels too") {
  std::stop_source stop;
  const auto deadline = std::chrono::steady_clock::now() + 30s;
  rr::ContextOptions options;
  options.stop = rr::make_reconcile_stop(stop.get_token());
  options.deadline = deadline;
  rr::Context ctx(std::move(options));
  CHECK(ctx.deadline() == deadline);
  CHECK_FALSE(ctx.cancelled());
  CHECK_FALSE(rr::stop_token_of(ctx).stop_requested());
  stop.request_stop();
  CHECK(rr::stop_token_of(ctx).stop_requested());
  CHECK(ctx.cancelled());
}

TEST_CASE("Config: api() needs a client; reader() falls back to it") {
  rr::Config empty;
  CHECK_THROWS_AS(empty.api(), std::logic_error);
  CHECK_THROWS_AS(empty.reader(), std::logic_error);
}

TEST_CASE("Logger: names, values and levels reach the sink") {
  CapturedLog captured;
  const rr::Logger root = captured.logger();
  const rr::Logger child = root.named("Widget").named("ChildImage").with("request", "ns/w");
  child.info("reconciling");
  child.debug("details");
  child.error(rr::Error::make("boom").wrap("create"), "failed");
  root.info("root");

  REQUIRE(captured.records->size() == 4);
  const auto& info = (*captured.records)[0];
  CHECK(info.level == rr::LogLevel::Info);
  CHECK(info.logger == "Widget.ChildImage");
  CHECK(info.message == "reconciling");
  CHECK(info.error.empty());
  REQUIRE(info.values.size() == 1);
  CHECK(info.values[0] == std::pair<std::string, std::string>{"request", "ns/w"});
  CHECK((*captured.records)[1].level == rr::LogLevel::Debug);
  const auto& error = (*captured.records)[2];
  CHECK(error.level == rr::LogLevel::Error);
  CHECK(error.error == "create: boom");
  CHECK(error.message == "failed");
  CHECK((*captured.records)[3].logger.empty());
  CHECK((*captured.records)[3].values.empty());  // with() returned a new logger

  rr::Logger discard;
  CHECK_NOTHROW(discard.named("x").info("nobody listens"));
  CHECK_FALSE(discard.named("x").with("k", "v").enabled());
  CHECK(child.enabled());
  CHECK_FALSE(rr::Logger(std::make_shared<const rr::LogSink>()).enabled());  // an empty sink function
}
