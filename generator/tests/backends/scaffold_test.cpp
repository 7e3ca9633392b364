#include "backends/scaffold/scaffold.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reconciler_fixtures.hpp"

using namespace rrgen;

namespace {

const std::string& file(const OutputSet& out, const std::string& path) {
  for (const auto& f : out.files) {
    if (f.path == path) return f.content;
  }
  FAIL("no file " << path);
  static const std::string none;
  return none;
}

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

const GenerateOptions kOptions{"9.9.9"};

}  // namespace

TEST_CASE("scaffold: hooks header, hooks source and a test per step; the user's, not generated") {
  ResolvedSpec spec = testing::function_spec();
  const OutputSet out = scaffold_user_files(spec, kOptions);
  std::vector<std::string> paths;
  for (const auto& o : out.files) paths.push_back(o.path);
  CHECK(paths == std::vector<std::string>{"src/function_hooks.hpp", "src/function_hooks.cpp",
                                          "tests/target_image_test.cpp", "tests/child_image_test.cpp"});
  for (const auto& o : out.files) {
    CAPTURE(o.path);
    CHECK_FALSE(has(o.content, "DO NOT EDIT"));
    CHECK_FALSE(has(o.content, "$"));  // every hole filled
    CHECK_FALSE(has(o.content, " \n"));
    CHECK(o.content.back() == '\n');
    CHECK_FALSE(has(o.content, "\n\n\n"));
  }
  const OutputSet again = scaffold_user_files(spec, kOptions);
  for (std::size_t i = 0; i < out.files.size(); ++i) CHECK(out.files[i].content == again.files[i].content);
}

TEST_CASE("scaffold: the hooks header declares every hook, documented, under its step") {
  ResolvedSpec spec = testing::function_spec();
  const std::string h = file(scaffold_user_files(spec, kOptions), "src/function_hooks.hpp");
  CHECK(has(h, "#include \"function_reconciler.hpp\"\n#include \"rr/reconcilers/context.hpp\"\n"));
  CHECK(has(h, "#include \"rr/reconcilers/object_manager.hpp\"\n"));  // rr::Desired
  CHECK(has(h, "namespace fnsample {\n\nstruct FunctionHooks {\n  // ---- TargetImage: sync, tracks ConfigMap "
               "(reconciler.yaml:9:5) ---"));
  CHECK(has(h, "  rr::Error target_image_sync(rr::Context& ctx, Function& function) const;\n"));
  CHECK(has(h, "  rr::Desired<Image> child_image_desired(rr::Context& ctx, const Function& function) const;\n"));
  CHECK(has(h, "  void child_image_reflect(rr::Context& ctx, Function& function, const Image* child,\n"
               "                           const rr::Error& err) const;\n"));
  CHECK(has(h, "  // The Image that should exist for the Function: a child, std::nullopt (none: an existing one"));
}

TEST_CASE("scaffold: every hook body is a no-op with a TODO(you)") {
  ResolvedSpec spec = testing::webapp_spec();
  const std::string cpp = file(scaffold_user_files(spec, kOptions), "src/web_app_hooks.cpp");
  CHECK(has(cpp, "rr::Error WebAppHooks::config_sync(rr::Context& /*ctx*/, WebApp& /*web_app*/) const {\n"
                 "  // TODO(you): bring the WebApp up to date for step Config"));
  CHECK(has(cpp, "  // It tracks ConfigMap: read it with rr::track_and_try_get<ConfigMap>(ctx, {namespace, name}) (or"));
  CHECK(has(cpp, "  return std::nullopt;\n}"));
  CHECK(has(cpp, "void WebAppHooks::deployment_merge(Deployment& current, const Deployment& desired) const {\n"));
  CHECK(has(cpp, "  current.metadata.labels = desired.metadata.labels;\n  current.spec = desired.spec;\n}"));
  CHECK(has(cpp, "  // The finalizer web.example.rrgen.dev/dns-record keeps the WebApp until this returns no error;"));
  CHECK(has(cpp, "std::string WebAppHooks::workers_identify(const Deployment& child) const {\n"));
  CHECK(has(cpp, "  return child.metadata.name;\n"));
  CHECK(has(cpp, "bool WebAppHooks::workers_our_child(const WebApp& /*web_app*/, const Deployment& /*child*/) const {\n"));
  CHECK(has(cpp, "  options.namespace_ = web_app.metadata.namespace_;\n"));
  CHECK(has(cpp, "rr::Outcome WebAppHooks::report_sync(rr::Context& /*ctx*/, WebApp& /*web_app*/) const {\n"));
  CHECK(has(cpp, "#include \"web_app_hooks.hpp\"\n\n#include <optional>\n\nnamespace webapp {\n"));
  // Every TODO line opens a hook body.
  std::size_t todos = 0;
  for (std::size_t at = cpp.find("TODO(you)"); at != std::string::npos; at = cpp.find("TODO(you)", at + 1)) ++todos;
  CHECK(todos == 18);
}

TEST_CASE("scaffold: merge copies what the kind has besides metadata and status") {
  ResolvedSpec spec = testing::function_spec();
  spec.kinds[2].content_fields = {"binary_data", "data"};
  spec.steps[1].child->content_fields = {"binary_data", "data"};
  const std::string cpp = file(scaffold_user_files(spec, kOptions), "src/function_hooks.cpp");
  CHECK(has(cpp, "As scaffolded: the labels, binary_data and data.\n  current.metadata.labels = "
                 "desired.metadata.labels;\n  current.binary_data = desired.binary_data;\n  current.data = "
                 "desired.data;\n}"));
}

TEST_CASE("scaffold: a step's test passes as scaffolded and shows where cases go") {
  ResolvedSpec spec = testing::webapp_spec();
  const OutputSet out = scaffold_user_files(spec, kOptions);
  const std::string config = file(out, "tests/config_test.cpp");
  CHECK(has(config, "rr::SubReconciler<WebApp> step(const Case&, const rr::Config&) {\n"
                    "  return webapp::WebAppConfigReconciler();\n}\n"));
  CHECK(has(config, "RR_SUB_RECONCILER_TESTS(\"WebAppConfigReconciler\", WebApp, step) {\n"));
  CHECK(has(config, "  web_app.metadata.namespace_ = \"test-namespace\";\n  web_app.metadata.name = \"test-web-app\";\n"));
  CHECK(has(config, "      {\"as scaffolded, the step leaves the WebApp as it is\", {.resource = web_app}},\n"
                    "      // TODO(you): a case per thing the step does, for example:\n"));
  CHECK(has(config, "      //     .expect_tracks = {\n"
                    "      //         rr::testing::create_track_request(\"\", \"ConfigMap\", \"test-namespace\", \"<name>\")\n"
                    "      //             .by(\"test-namespace\", \"test-web-app\")},\n"));
  CHECK(has(config, "      //     .with_reactors = {rr::testing::induce_failure(\"get\", \"ConfigMap\")},\n"));
  // WithFinalizer would patch its finalizer in first: the given object has it already.
  CHECK(has(file(out, "tests/dns_record_test.cpp"),
            "  web_app.metadata.finalizers = {\"web.example.rrgen.dev/dns-record\"};\n"));
  CHECK(has(file(out, "tests/workers_test.cpp"), "  web_app.metadata.finalizers = {\"web.example.rrgen.dev/workers\"};\n"));
  CHECK_FALSE(has(file(out, "tests/deployment_test.cpp"), "finalizers"));
  CHECK(has(file(out, "tests/deployment_test.cpp"), "      //     .expect_creates = {/* the Deployment deployment_desired returns */},\n"));
}

TEST_CASE("scaffold: a cluster-scoped resource gets no namespace") {
  ResolvedSpec spec = testing::function_spec();
  spec.resource.namespaced = false;
  const std::string t = file(scaffold_user_files(spec, kOptions), "tests/target_image_test.cpp");
  CHECK_FALSE(has(t, "metadata.namespace_"));
}
