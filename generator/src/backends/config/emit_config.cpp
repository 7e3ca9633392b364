#include "backends/config/emit_config.hpp"

#include <set>
#include <utility>

#include "backends/config/emit_metrics_config.hpp"
#include "backends/config/emit_policy_config.hpp"
#include "backends/config/emit_webhook_config.hpp"
#include "backends/config/manager_image.hpp"
#include "model/rbac_derive.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

namespace {

constexpr int health_port = 8081;

// Base names made unique ("crds.yaml", "crds-2.yaml") so two inputs never overwrite each other.
std::vector<std::string> unique_names(const std::vector<ConfigCrdFile>& crds) {
  std::set<std::string> taken;
  std::vector<std::string> out;
  for (const ConfigCrdFile& crd : crds) {
    const std::string name = crd.name.empty() ? "crd.yaml" : crd.name;
    const std::size_t dot = name.rfind('.');
    const std::string stem = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
    const std::string ext = stem.size() == name.size() ? "" : name.substr(stem.size());
    std::string candidate = name;
    for (int n = 2; !taken.insert(candidate).second; ++n) candidate = stem + "-" + std::to_string(n) + ext;
    out.push_back(candidate);
  }
  return out;
}

// kustomize's `patches:` entries, one `path:` each.
Yaml patch_list(const std::vector<std::string>& paths) {
  Yaml list = Yaml::seq();
  for (const std::string& path : paths) {
    Yaml entry = Yaml::map();
    entry.set("path", path);
    list.push(std::move(entry));
  }
  return list;
}

Yaml selector_labels(const DeployNames& names) {
  Yaml labels = Yaml::map();
  labels.set("control-plane", "controller-manager");
  labels.set("app.kubernetes.io/name", names.app);
  return labels;
}

Yaml namespace_object(const DeployNames& names) {
  Yaml meta = Yaml::map();
  meta.set("labels", selector_labels(names));
  meta.set("name", names.namespace_);
  Yaml doc = Yaml::map();
  doc.set("apiVersion", "v1");
  doc.set("kind", "Namespace");
  doc.set("metadata", std::move(meta));
  return doc;
}

Yaml http_probe(const char* path, int initial_delay, int period) {
  Yaml get = Yaml::map();
  get.set("path", path);
  get.set("port", Yaml::integer(health_port));
  Yaml probe = Yaml::map();
  probe.set("httpGet", std::move(get));
  probe.set("initialDelaySeconds", Yaml::integer(initial_delay));
  probe.set("periodSeconds", Yaml::integer(period));
  return probe;
}

Yaml container_port(const char* name, int port) {
  Yaml p = Yaml::map();
  p.set("containerPort", Yaml::integer(port));
  p.set("name", name);
  p.set("protocol", "TCP");
  return p;
}

Yaml cpu_memory(const char* cpu, const char* memory) {
  Yaml r = Yaml::map();
  r.set("cpu", cpu);
  r.set("memory", memory);
  return r;
}

// The manager container, locked down as kubebuilder's scaffold is (restricted Pod Security
// Standard) and with a read-only root filesystem: the runtime writes no files.
Yaml manager_container(const ResolvedSpec& spec) {
  std::vector<std::string> args;
  if (!spec.leader_election_id.empty()) args.push_back("--leader-elect");
  if (!spec.namespaces.empty()) {
    // The cache watches these namespaces only, where config/rbac-namespaces grants a Role.
    std::string list;
    for (const std::string& ns : spec.namespaces) list += (list.empty() ? "" : ",") + ns;
    args.push_back("--namespaces=" + list);
  }
  // The cache watches Namespaces and the kinds in those whose labels match (a RoleBinding of the
  // namespaced ClusterRole in each: config/rbac-namespaces/role_binding.yaml).
  if (!spec.namespace_selector.empty()) args.push_back("--namespace-selector=" + spec.namespace_selector);
  if (spec.core_v1_events) args.push_back("--events-api=core/v1");
  args.push_back("--health-probe-bind-address=:" +
                 std::to_string(health_port));  // config/default adds the metrics flags

  Yaml capabilities = Yaml::map();
  capabilities.set("drop", Yaml::strings({"ALL"}));
  Yaml security = Yaml::map();
  security.set("allowPrivilegeEscalation", Yaml::boolean(false));
  security.set("capabilities", std::move(capabilities));
  security.set("readOnlyRootFilesystem", Yaml::boolean(true));

  Yaml resources = Yaml::map();
  resources.set("limits", cpu_memory("500m", "128Mi"));
  resources.set("requests", cpu_memory("10m", "64Mi"));

  Yaml c = Yaml::map();
  c.set("name", "manager");
  c.set("image", std::string(kManagerImagePlaceholder));  // manager_kustomization() maps it
  c.set("args", Yaml::strings(args));
  c.set("ports",
        Yaml::seq().push(container_port("metrics", metrics_port(spec))).push(container_port("health", health_port)));
  c.set("livenessProbe", http_probe("/healthz", 15, 20));
  c.set("readinessProbe", http_probe("/readyz", 5, 10));
  c.set("resources", std::move(resources));
  c.set("securityContext", std::move(security));
  return c;
}

Yaml deployment(const ResolvedSpec& spec, const DeployNames& names) {
  Yaml meta = Yaml::map();
  meta.set("labels", selector_labels(names));
  meta.set("name", names.deployment);
  meta.set("namespace", names.namespace_);

  Yaml selector = Yaml::map();
  selector.set("matchLabels", selector_labels(names));

  Yaml annotations = Yaml::map();
  annotations.set("kubectl.kubernetes.io/default-container", "manager");
  Yaml template_meta = Yaml::map();
  template_meta.set("annotations", std::move(annotations));
  template_meta.set("labels", selector_labels(names));

  Yaml seccomp = Yaml::map();
  seccomp.set("type", "RuntimeDefault");
  Yaml pod_security = Yaml::map();
  pod_security.set("runAsNonRoot", Yaml::boolean(true));
  pod_security.set("seccompProfile", std::move(seccomp));

  Yaml pod = Yaml::map();
  pod.set("containers", Yaml::seq().push(manager_container(spec)));
  pod.set("securityContext", std::move(pod_security));
  pod.set("serviceAccountName", names.service_account);
  pod.set("terminationGracePeriodSeconds", Yaml::integer(10));

  Yaml pod_template = Yaml::map();
  pod_template.set("metadata", std::move(template_meta));
  pod_template.set("spec", std::move(pod));

  Yaml deploy_spec = Yaml::map();
  deploy_spec.set("replicas", Yaml::integer(spec.replicas));
  deploy_spec.set("selector", std::move(selector));
  deploy_spec.set("template", std::move(pod_template));

  Yaml doc = Yaml::map();
  doc.set("apiVersion", "apps/v1");
  doc.set("kind", "Deployment");
  doc.set("metadata", std::move(meta));
  doc.set("spec", std::move(deploy_spec));
  return doc;
}

}  // namespace

OutputSet emit_config(const ResolvedSpec& spec, const std::vector<ConfigCrdFile>& crds,
                      const GenerateOptions& /*options*/) {
  const DeployNames names = deploy_names(spec);
  OutputSet out;

  std::vector<std::string> default_resources;
  if (!crds.empty()) {
    const std::vector<std::string> names_in_bases = unique_names(crds);
    std::vector<std::string> bases;
    for (std::size_t i = 0; i < crds.size(); ++i) {
      out.files.push_back({"config/crd/bases/" + names_in_bases[i], crds[i].content});
      bases.push_back("bases/" + names_in_bases[i]);
    }
    Yaml crd_kustomization = kustomization(bases);
    const std::vector<std::string> patches = webhook_crd_patches(spec);
    if (!patches.empty()) crd_kustomization.set("patches", patch_list(patches));
    out.files.push_back({"config/crd/kustomization.yaml", manifest_file({crd_kustomization})});
    default_resources.push_back("../crd");
  }
  default_resources.push_back("../rbac");
  default_resources.push_back("../manager");
  for (const std::string& r : webhook_default_resources(spec)) default_resources.push_back(r);
  for (const std::string& r : metrics_default_resources(spec)) default_resources.push_back(r);
  for (const std::string& r : policy_default_resources(spec)) default_resources.push_back(r);
  emit_webhook_config(spec, out);
  emit_policy_config(spec, out);
  emit_metrics_config(spec, out);

  out.files.push_back({"config/manager/manager.yaml",
                       manifest_file({namespace_object(names), deployment(spec, names)},
                                     "The namespace the operator runs in and its controller manager.")});
  out.files.push_back({"config/manager/kustomization.yaml", manifest_file({manager_kustomization(spec.image)})});

  // Names already carry the app prefix ("<app>-manager-role"), so no namePrefix.
  Yaml default_kustomization = kustomization(default_resources, names.namespace_);
  Yaml patches = Yaml::seq().push(metrics_default_patch());
  for (const std::string& path : webhook_default_patches(spec)) patches.push(Yaml::map().set("path", path));
  default_kustomization.set("patches", std::move(patches));
  out.files.push_back(
      {"config/default/kustomization.yaml",
       manifest_file({default_kustomization},
                     "Renders the whole operator: kubectl kustomize config/default | kubectl apply -f -\n"
                     "config/prometheus and config/network-policy are listed only with metrics.serviceMonitor / "
                     "metrics.networkPolicy in the spec.")});
  return out;
}

}  // namespace rrgen
