// Hand-built resolved specs for the reconciler backend's unit tests: the Function (sync with
// tracks + child) and a web app (built-in children, finalizer-guarded sync, a child set in
// finalizer mode), without the spec reader or resolution.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "model/reconciler.hpp"

namespace rrgen::testing {

// The path every fixture's locations name; static, so the specs can be copied freely.
inline const std::string& spec_file() {
  static const std::string file = "/abs/path/to/reconciler.yaml";
  return file;
}

// Appends a step written at `line`:5 of the spec; `child` / `tracks` are resolved kinds.
inline ResolvedStep& add_step(ResolvedSpec& spec, StepKind type, std::string name, std::uint32_t line,
                              const ResolvedKind* child = nullptr, std::vector<ResolvedKind> tracks = {}) {
  ResolvedStep step;
  step.type = type;
  step.name = std::move(name);
  step.location = Location{&spec_file(), line, 5};
  if (child) step.child = *child;
  step.tracks = std::move(tracks);
  spec.steps.push_back(std::move(step));
  return spec.steps.back();
}

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

// reconciler.yaml of the Function: TargetImage (sync, tracks ConfigMap), ChildImage (child Image).
inline ResolvedSpec function_spec() {
  ResolvedSpec f;
  f.file = spec_file();
  f.name = "Function";
  f.conditions = {"ImageResolved", "ImageReady"};
  const ResolvedKind function = kind("build.example.rrgen.dev", "v1", "Function", "functions",
                                     "fnsample::v1::Function", "fnsample/v1/function.hpp", false, {"spec"});
  const ResolvedKind image = kind("build.example.rrgen.dev", "v1alpha1", "Image", "images", "fnsample::v1alpha1::Image",
                                  "fnsample/v1alpha1/image.hpp", false, {"spec"});
  add_step(f, StepKind::Sync, "TargetImage", 9, nullptr, {config_map_kind()});
  add_step(f, StepKind::Child, "ChildImage", 11, &image);
  f.file_stem = "function";
  f.cpp_namespace = "fnsample";
  f.resource = function;
  f.kinds = {function, config_map_kind(), image};
  return f;
}

// A web app: Config (sync, tracks ConfigMap), Deployment and Service (children), DnsRecord (sync
// behind a finalizer), Workers (child set of Deployments in finalizer mode, sync with result).
inline ResolvedSpec webapp_spec() {
  ResolvedSpec f;
  f.file = spec_file();
  f.name = "WebApp";
  f.conditions = {"ConfigReady", "DeploymentReady", "Ready", "ConfigReady"};
  const ResolvedKind app = kind("web.example.rrgen.dev", "v1", "WebApp", "webapps", "webapp::v1::WebApp",
                                "webapp/v1/web_app.hpp", false, {"spec"});
  const ResolvedKind deployment = deployment_kind(), service = service_kind();
  add_step(f, StepKind::Sync, "Config", 10, nullptr, {config_map_kind()});
  add_step(f, StepKind::Child, "Deployment", 12, &deployment);
  add_step(f, StepKind::Child, "Service", 14, &service);
  add_step(f, StepKind::Sync, "DnsRecord", 16).finalizer = "web.example.rrgen.dev/dns-record";
  add_step(f, StepKind::ChildSet, "Workers", 18, &deployment).finalizer = "web.example.rrgen.dev/workers";
  ResolvedStep& report = add_step(f, StepKind::Sync, "Report", 21);
  report.with_result = true;
  report.finalize = true;
  report.during_finalization = true;
  f.file_stem = "web_app";
  f.cpp_namespace = "webapp";
  f.resource = app;
  f.kinds = {app, config_map_kind(), deployment, service};
  return f;
}

}  // namespace rrgen::testing
