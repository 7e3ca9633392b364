#include "backends/rbac/emit_rbac.hpp"

#include <utility>
#include <vector>

#include "backends/rbac/rbac_documents.hpp"
#include "model/rbac_derive.hpp"
#include "support/yaml_writer.hpp"

namespace rrgen {

namespace {
constexpr const char* rbac_api_version = "rbac.authorization.k8s.io/v1";
}  // namespace

Yaml metadata(const DeployNames& names, const std::string& name, const std::string& namespace_) {
  Yaml meta = Yaml::map();
  if (!names.app.empty()) {
    Yaml labels = Yaml::map();
    labels.set("app.kubernetes.io/name", names.app);
    meta.set("labels", std::move(labels));
  }
  meta.set("name", name);
  if (!namespace_.empty()) meta.set("namespace", namespace_);
  return meta;
}

// Fields in the order controller-gen writes them (alphabetical, as Go's JSON of PolicyRule).
Yaml policy_rule(const PolicyRule& rule) {
  Yaml r = Yaml::map();
  if (!rule.api_groups.empty()) r.set("apiGroups", Yaml::strings(rule.api_groups));
  if (!rule.non_resource_urls.empty()) r.set("nonResourceURLs", Yaml::strings(rule.non_resource_urls));
  if (!rule.resource_names.empty()) r.set("resourceNames", Yaml::strings(rule.resource_names));
  if (!rule.resources.empty()) r.set("resources", Yaml::strings(rule.resources));
  r.set("verbs", Yaml::strings(rule.verbs));
  return r;
}

Yaml role(const DeployNames& names, const RoleKey& key, const RoleRules& rules) {
  Yaml rule_list = Yaml::seq();
  for (const PolicyRule& rule : rules.rules) rule_list.push(policy_rule(rule));
  Yaml doc = Yaml::map();
  doc.set("apiVersion", rbac_api_version);
  doc.set("kind", key.cluster_role() ? "ClusterRole" : "Role");
  doc.set("metadata", metadata(names, key.name, key.namespace_));
  doc.set("rules", std::move(rule_list));
  return doc;
}

namespace {

// A binding of the role `key` to the manager's ServiceAccount: a ClusterRoleBinding of a ClusterRole,
// a RoleBinding of a Role in its namespace, or (`in_namespace`) a RoleBinding without a namespace
// of a ClusterRole, which grants its rules in the namespace it is applied in.
Yaml binding_of(const DeployNames& names, const RoleKey& key, bool in_namespace) {
  Yaml role_ref = Yaml::map();
  role_ref.set("apiGroup", "rbac.authorization.k8s.io");
  role_ref.set("kind", key.cluster_role() ? "ClusterRole" : "Role");
  role_ref.set("name", key.name);
  Yaml subject = Yaml::map();
  subject.set("kind", "ServiceAccount");
  subject.set("name", names.service_account);
  subject.set("namespace", names.namespace_);
  Yaml doc = Yaml::map();
  doc.set("apiVersion", rbac_api_version);
  doc.set("kind", key.cluster_role() && !in_namespace ? "ClusterRoleBinding" : "RoleBinding");
  doc.set("metadata", metadata(names, binding_name(key.name), key.namespace_));
  doc.set("roleRef", std::move(role_ref));
  doc.set("subjects", Yaml::seq().push(std::move(subject)));
  return doc;
}

}  // namespace

Yaml binding(const DeployNames& names, const RoleKey& key) { return binding_of(names, key, false); }

namespace {

std::string origins_comment(const std::vector<const RoleRules*>& roles) {
  std::vector<std::string> origins;
  for (const RoleRules* r : roles) {
    for (const std::string& o : r->origins) {
      bool seen = false;
      for (const std::string& have : origins) seen = seen || have == o;
      if (!seen) origins.push_back(o);
    }
  }
  std::string text = "Rules: ";
  for (std::size_t i = 0; i < origins.size(); ++i) text += (i > 0 ? "; " : "") + origins[i];
  return text + ". Normalised as controller-gen does (docs/rbac.md).";
}

}  // namespace

std::string role_manifests(const RoleSet& roles, const DeployNames& names, const std::string& comment) {
  std::vector<Yaml> docs;
  for (const auto& [key, rules] : roles.roles) docs.push_back(role(names, key, rules));
  return manifest_file(docs, comment);
}

OutputSet emit_rbac(const ResolvedSpec& spec, const GenerateOptions& /*options*/) {
  return emit_rbac_roles(spec, derive_rbac(spec));
}

OutputSet emit_rbac_roles(const ResolvedSpec& spec, const RoleSet& roles) {
  const DeployNames names = deploy_names(spec);

  std::vector<Yaml> manager_roles, manager_bindings, leader_roles, leader_bindings, watched_roles, watched_bindings,
      namespaced_roles;
  std::vector<const RoleRules*> manager_rules, leader_rules, watched_rules, namespaced_rules;
  for (const auto& [key, rules] : roles.roles) {
    const bool leader = key.name == names.leader_election_role && key.namespace_ == names.namespace_;
    // A Role in a namespace of `namespaces:` other than the deploy namespace: config/default's
    // `namespace:` would move it there, so it lives in a kustomization of its own.
    const bool watched = !leader && !key.cluster_role() && key.namespace_ != names.namespace_;
    // The namespaced kinds' ClusterRole under a namespace selector: bound per namespace, by an admin.
    if (key.cluster_role() && key.name == names.namespaced_role) {
      namespaced_roles.push_back(role(names, key, rules));
      namespaced_rules.push_back(&rules);
      continue;
    }
    (leader ? leader_roles : watched ? watched_roles : manager_roles).push_back(role(names, key, rules));
    (leader ? leader_bindings : watched ? watched_bindings : manager_bindings).push_back(binding(names, key));
    (leader ? leader_rules : watched ? watched_rules : manager_rules).push_back(&rules);
  }

  OutputSet out;
  std::vector<std::string> resources;
  auto write = [&](const std::string& file, const std::vector<Yaml>& docs, const std::string& comment = {}) {
    if (docs.empty()) return;
    out.files.push_back({"config/rbac/" + file, manifest_file(docs, comment)});
    resources.push_back(file);
  };

  Yaml account = Yaml::map();
  account.set("apiVersion", "v1");
  account.set("kind", "ServiceAccount");
  account.set("metadata", metadata(names, names.service_account, names.namespace_));
  write("service_account.yaml", {std::move(account)}, "The identity the controller manager runs as.");
  write("role.yaml", manager_roles, origins_comment(manager_rules));
  write("role_binding.yaml", manager_bindings);
  write("namespaced_role.yaml", namespaced_roles,
        "The manager's rules in each namespace its selector (namespaces: {selector: ...}) chooses. Not bound "
        "here: bind it in each selected namespace with " +
            std::string(rbac_namespaces_dir) + "/role_binding.yaml. " + origins_comment(namespaced_rules));
  write("leader_election_role.yaml", leader_roles, "Permissions to do leader election.");
  write("leader_election_role_binding.yaml", leader_bindings);
  for (const auto& [file, docs, comment] : metrics_rbac_files(spec, names)) write(file, docs, comment);
  out.files.push_back({"config/rbac/kustomization.yaml", manifest_file({kustomization(resources)})});
  if (!namespaced_roles.empty()) {
    // A template, not in any kustomization (it has no namespace): an admin applies it in each
    // namespace the selector chooses, as OLM binds an OperatorGroup's roles. The operator cannot
    // bind itself: creating a RoleBinding to a role needs that role's permissions or `bind` on it.
    Yaml template_binding = binding_of(names, RoleKey{"", names.namespaced_role}, true);
    out.files.push_back(
        {std::string(rbac_namespaces_dir) + "/role_binding.yaml",
         manifest_file({std::move(template_binding)},
                       "Template: grants the manager its rules in one namespace. Apply it in each namespace "
                       "that matches the selector (" +
                           spec.namespace_selector + "):\n  kubectl apply -n <namespace> -f " + rbac_namespaces_dir +
                           "/role_binding.yaml\nUntil then the manager logs 403s for that namespace and retries "
                           "(rr_informer_cache_forbidden_total counts them); the other namespaces are served.")});
  }
  if (!watched_roles.empty()) {
    std::vector<std::string> watched_resources;
    auto write_watched = [&](const std::string& file, const std::vector<Yaml>& docs, const std::string& comment) {
      out.files.push_back({std::string(rbac_namespaces_dir) + "/" + file, manifest_file(docs, comment)});
      watched_resources.push_back(file);
    };
    write_watched(
        "role.yaml", watched_roles,
        "The manager's Role in each namespace it watches (namespaces: in the spec). " + origins_comment(watched_rules));
    write_watched("role_binding.yaml", watched_bindings,
                  "Binds each Role to the manager's ServiceAccount in " + names.namespace_ + ".");
    out.files.push_back(
        {std::string(rbac_namespaces_dir) + "/kustomization.yaml",
         manifest_file({kustomization(watched_resources)}, "No namespace: each Role stays in the namespace it grants "
                                                           "(kubectl apply -k; dist/install.yaml appends it).")});
  }
  return out;
}

}  // namespace rrgen
