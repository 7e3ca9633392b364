// Hand-built resolved specs for the reconciler backend's unit tests: the seeds' Function (sync with
// tracks + child) and a web app (built-in children, finalizer-guarded sync, a child set in
// finalizer mode), without the spec reader. A ResolvedSpec points into its ReconcilerSpec, so
// both live in one fixture that is never copied.
#pragma once
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "load/spec.hpp"

namespace rrgen::testing {

struct SpecFixture {
  std::string file = "/abs/path/to/reconciler.yaml";
  ReconcilerSpec spec;
  ResolvedSpec resolved;

  SpecFixture() = default;
  SpecFixture(const SpecFixture&) = delete;
  SpecFixture& operator=(const SpecFixture&) = delete;

  // Appends a step written at `line`:5 of the spec; `child` / `tracks` are resolved kinds.
  SpecStep& add_step(StepType type, std::string name, std::uint32_t line, const ResolvedKind* child = nullptr,
                     std::vector<ResolvedKind> tracks = {}) {
    SpecStep step;
    step.type = type;
    step.name = std::move(name);
    step.location = Location{&file, line, 5};
    spec.steps.push_back(std::move(step));
    ResolvedStep r;
    if (child) r.child = *child;
    r.tracks = std::move(tracks);
    resolved.steps.push_back(std::move(r));
    return spec.steps.back();
  }

  // Call once every step is added: std::vector may have moved the steps.
  void link() {
    spec.file = &file;
    resolved.spec = &spec;
    for (std::size_t i = 0; i < spec.steps.size(); ++i) resolved.steps[i].step = &spec.steps[i];
  }
};

inline ResolvedKind kind(std::string group, std::string version, std::string kind_name, std::string plural,
                         std::string cpp_type, std::string header, bool builtin, std::vector<std::string> content) {
  ResolvedKind k;
  k.group = std::move(group);
  k.version = std::move(version);
  k.kind = std::move(kind_name);
  k.plural = std::move(plural);
  k.has_status = true;
  k.builtin = builtin;
  k.cpp_type = std::move(cpp_type);
  k.header = std::move(header);
  k.content_fields = std::move(content);
  return k;
}

inline ResolvedKind config_map_kind() {
  ResolvedKind k = kind("", "v1", "ConfigMap", "configmaps", "k8s::core::v1::ConfigMap", "k8s/core/v1/config_map.hpp",
                        true, {"binary_data", "data", "immutable"});
  k.has_status = false;
  return k;
}
inline ResolvedKind deployment_kind() {
  return kind("apps", "v1", "Deployment", "deployments", "k8s::apps::v1::Deployment", "k8s/apps/v1/deployment.hpp", true,
              {"spec"});
}
inline ResolvedKind service_kind() {
  return kind("", "v1", "Service", "services", "k8s::core::v1::Service", "k8s/core/v1/service.hpp", true, {"spec"});
}

// reconciler.yaml of the seeds' Function: TargetImage (sync, tracks ConfigMap), ChildImage (child Image).
inline std::unique_ptr<SpecFixture> function_spec() {
  auto f = std::make_unique<SpecFixture>();
  f->spec.name = "Function";
  f->spec.cpp_namespace = "fnsample";
  f->spec.conditions = {"ImageResolved", "ImageReady"};
  const ResolvedKind function = kind("build.example.rrgen.dev", "v1", "Function", "functions",
                                     "fnsample::v1::Function", "fnsample/v1/function.hpp", false, {"spec"});
  const ResolvedKind image = kind("build.example.rrgen.dev", "v1alpha1", "Image", "images", "fnsample::v1alpha1::Image",
                                  "fnsample/v1alpha1/image.hpp", false, {"spec"});
  f->add_step(StepType::Sync, "TargetImage", 9, nullptr, {config_map_kind()});
  f->add_step(StepType::Child, "ChildImage", 11, &image);
  f->resolved.file_stem = "function";
  f->resolved.cpp_namespace = "fnsample";
  f->resolved.resource = function;
  f->resolved.kinds = {function, config_map_kind(), image};
  f->link();
  return f;
}

// A web app: Config (sync, tracks ConfigMap), Deployment and Service (children), DnsRecord (sync
// behind a finalizer), Workers (child set of Deployments in finalizer mode, sync with result).
inline std::unique_ptr<SpecFixture> webapp_spec() {
  auto f = std::make_unique<SpecFixture>();
  f->spec.name = "WebApp";
  f->spec.cpp_namespace = "webapp";
  f->spec.conditions = {"ConfigReady", "DeploymentReady", "Ready", "ConfigReady"};
  const ResolvedKind app = kind("web.example.rrgen.dev", "v1", "WebApp", "webapps", "webapp::v1::WebApp",
                                "webapp/v1/web_app.hpp", false, {"spec"});
  const ResolvedKind deployment = deployment_kind(), service = service_kind();
  f->add_step(StepType::Sync, "Config", 10, nullptr, {config_map_kind()});
  f->add_step(StepType::Child, "Deployment", 12, &deployment);
  f->add_step(StepType::Child, "Service", 14, &service);
  f->add_step(StepType::Sync, "DnsRecord", 16).finalizer = "web.example.rrgen.dev/dns-record";
  SpecStep& workers = f->add_step(StepType::ChildSet, "Workers", 18, &deployment);
  workers.finalizer = "web.example.rrgen.dev/workers";
  SpecStep& report = f->add_step(StepType::Sync, "Report", 21);
  report.with_result = true;
  report.finalize = true;
  report.during_finalization = true;
  f->resolved.file_stem = "web_app";
  f->resolved.cpp_namespace = "webapp";
  f->resolved.resource = app;
  f->resolved.kinds = {app, config_map_kind(), deployment, service};
  f->link();
  return f;
}

}  // namespace rrgen::testing
