#include "model/hooks.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "reconciler_fixtures.hpp"

using namespace rrgen;

namespace {

std::vector<std::string> signatures(const std::vector<Hook>& hooks) {
  std::vector<std::string> out;
  for (const Hook& h : hooks) out.push_back(hook_signature(h, false));
  return out;
}

}  // namespace

TEST_CASE("wiring names: from the spec's name and stem") {
  ResolvedSpec spec = testing::function_spec();
  const WiringNames n = wiring_names(spec);
  CHECK(n.name == "Function");
  CHECK(n.stem == "function");
  CHECK(n.spec_file == "reconciler.yaml");  // the base name, never the absolute path
  CHECK(n.reconciler_header == "function_reconciler.hpp");
  CHECK(n.hooks_header == "function_hooks.hpp");
  CHECK(n.hooks_struct == "FunctionHooks");
  CHECK(n.root_function == "FunctionReconciler");
  CHECK(n.step_functions == std::vector<std::string>{"FunctionTargetImageReconciler", "FunctionChildImageReconciler"});
  CHECK(n.step_snake == std::vector<std::string>{"target_image", "child_image"});
  CHECK(n.aliases == std::vector<std::string>{"Function", "ConfigMap", "Image"});
  CHECK(n.resource_alias == "Function");
  CHECK(n.resource_param == "function");
}

TEST_CASE("wiring names: without a name, the resource's kind; the stem as resolved") {
  ResolvedSpec spec = testing::function_spec();
  spec.name.clear();
  spec.file_stem = "fn";
  const WiringNames n = wiring_names(spec);
  CHECK(n.name == "Function");
  CHECK(n.reconciler_header == "fn_reconciler.hpp");
}

TEST_CASE("wiring names: aliases that clash get numbers, first use first") {
  ResolvedSpec spec = testing::webapp_spec();
  ResolvedKind other = testing::deployment_kind();
  other.group = "example.dev";
  other.cpp_type = "webapp::v1::Deployment";
  spec.kinds.push_back(other);
  ResolvedKind hooks_named = other;
  hooks_named.kind = "WebAppHooks";  // the hooks struct keeps its name
  hooks_named.cpp_type = "webapp::v1::WebAppHooks";
  spec.kinds.push_back(hooks_named);
  const WiringNames n = wiring_names(spec);
  CHECK(n.aliases == std::vector<std::string>{"WebApp", "ConfigMap", "Deployment", "Service", "Deployment2",
                                              "WebAppHooks2"});
  CHECK(alias_of(spec, n, other) == "Deployment2");
}

TEST_CASE("wiring names: a resource named like a hook parameter or the namespace is `resource`") {
  ResolvedSpec spec = testing::function_spec();
  spec.resource.kind = "Child";
  CHECK(wiring_names(spec).resource_param == "resource");
  spec.resource.kind = "Fleet";
  CHECK(wiring_names(spec).resource_param == "fleet");
  spec.cpp_namespace = "example::fleet";
  CHECK(wiring_names(spec).resource_param == "resource");
  spec.cpp_namespace = "fleet";
  CHECK(wiring_names(spec).resource_param == "resource");
}

TEST_CASE("hooks: sync and child") {
  ResolvedSpec spec = testing::function_spec();
  const WiringNames n = wiring_names(spec);
  const std::vector<Hook> hooks = required_hooks(spec, n);
  CHECK(signatures(hooks) == std::vector<std::string>{
                                 "rr::Error target_image_sync(rr::Context&, Function&) const",
                                 "rr::Desired<Image> child_image_desired(rr::Context&, const Function&) const",
                                 "void child_image_merge(Image&, const Image&) const",
                                 "void child_image_reflect(rr::Context&, Function&, const Image*, const rr::Error&) const",
                             });
  CHECK(hook_signature(hooks[0], true) == "rr::Error target_image_sync(rr::Context& ctx, Function& function) const");
  CHECK(hooks[0].step == 0);
  CHECK(hooks[3].step == 1);
  CHECK(hooks[3].role == HookRole::Reflect);
  // The sync hook's doc says how to read the tracked kind.
  CHECK(hooks[0].doc.find("Read ConfigMaps through rr::track_and_get") != std::string::npos);
}

TEST_CASE("hooks: finalizer-guarded sync, child set in finalizer mode, sync with result") {
  ResolvedSpec spec = testing::webapp_spec();
  const WiringNames n = wiring_names(spec);
  CHECK(signatures(step_hooks(spec, n, 3)) == std::vector<std::string>{
                                                         "rr::Error dns_record_sync(rr::Context&, WebApp&) const",
                                                         "rr::Error dns_record_finalize(rr::Context&, WebApp&) const",
                                                     });
  CHECK(step_hooks(spec, n, 3)[1].doc.find("web.example.rrgen.dev/dns-record") != std::string::npos);
  CHECK(signatures(step_hooks(spec, n, 4)) ==
        std::vector<std::string>{
            "rr::DesiredChildren<Deployment> workers_desired(rr::Context&, const WebApp&) const",
            "std::string workers_identify(const Deployment&) const",
            "void workers_merge(Deployment&, const Deployment&) const",
            "void workers_reflect(rr::Context&, WebApp&, const rr::ChildSetResult<Deployment>&) const",
            "bool workers_our_child(const WebApp&, const Deployment&) const",
            "rr::ListOptions workers_list_options(rr::Context&, const WebApp&) const",
        });
  CHECK(signatures(step_hooks(spec, n, 5)) == std::vector<std::string>{
                                                         "rr::Outcome report_sync(rr::Context&, WebApp&) const",
                                                         "rr::Outcome report_finalize(rr::Context&, WebApp&) const",
                                                     });
}

TEST_CASE("hooks: a child in finalizer mode adds our_child and list_options") {
  ResolvedSpec spec = testing::webapp_spec();
  spec.steps[2].finalizer = "web.example.rrgen.dev/service";
  const WiringNames n = wiring_names(spec);
  CHECK(signatures(step_hooks(spec, n, 2)) ==
        std::vector<std::string>{
            "rr::Desired<Service> service_desired(rr::Context&, const WebApp&) const",
            "void service_merge(Service&, const Service&) const",
            "void service_reflect(rr::Context&, WebApp&, const Service*, const rr::Error&) const",
            "bool service_our_child(const WebApp&, const Service&) const",
            "rr::ListOptions service_list_options(rr::Context&, const WebApp&) const",
        });
}

TEST_CASE("conditions: as listed, without Ready and repeats") {
  ResolvedSpec spec = testing::webapp_spec();
  CHECK(condition_types(spec) == std::vector<std::string>{"ConfigReady", "DeploymentReady"});
}

TEST_CASE("step locations: the spec file's base name, line and column") {
  ResolvedSpec spec = testing::function_spec();
  CHECK(step_location(spec, spec.steps[0]) == "reconciler.yaml:9:5");
  spec.steps[0].location = {};
  CHECK(step_location(spec, spec.steps[0]) == "reconciler.yaml");
}

TEST_CASE("hooks: a child in apply mode returns its apply configuration and has no merge hook") {
  ResolvedSpec spec = testing::function_spec();
  spec.steps[1].apply = true;
  const WiringNames n = wiring_names(spec);
  CHECK(signatures(step_hooks(spec, n, 1)) ==
        std::vector<std::string>{
            "rr::Desired<ImageApply> child_image_desired(rr::Context&, const Function&) const",
            "void child_image_reflect(rr::Context&, Function&, const Image*, const rr::Error&) const",
        });
  const ResolvedKind& image = *spec.steps[1].child;
  CHECK(apply_alias_of(spec, n, image) == "ImageApply");
  CHECK(apply_cpp_type(image) == "fnsample::v1alpha1::ImageApply");
  CHECK(apply_header(image) == "fnsample/v1alpha1/image_apply.hpp");
}
