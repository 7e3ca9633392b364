#include "default_rbac.hpp"

#include <string>
#include <vector>

#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

namespace {

using Strings = std::vector<std::string>;

const Strings read_verbs = {"get", "list", "watch"};
const Strings write_verbs = {"create", "delete", "deletecollection", "patch", "update"};

Json rule(const Strings& groups, const Strings& resources, const Strings& verbs) {
  return Json{{"apiGroups", groups}, {"resources", resources}, {"verbs", verbs}};
}

Json url_rule(const Strings& urls, const Strings& verbs) { return Json{{"nonResourceURLs", urls}, {"verbs", verbs}}; }

Json metadata(const std::string& name, const std::string& aggregate_to = "") {
  Json labels = {{"kubernetes.io/bootstrapping", "rbac-defaults"}};
  if (!aggregate_to.empty()) labels["rbac.authorization.k8s.io/aggregate-to-" + aggregate_to] = "true";
  return Json{
      {"name", name}, {"labels", labels}, {"annotations", {{"rbac.authorization.kubernetes.io/autoupdate", "true"}}}};
}

Json cluster_role(const std::string& name, Json rules, const std::string& aggregate_to = "") {
  return Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
              {"kind", "ClusterRole"},
              {"metadata", metadata(name, aggregate_to)},
              {"rules", std::move(rules)}};
}

// A role whose rules are those of the ClusterRoles labelled aggregate-to-<name>.
Json aggregated_role(const std::string& name, const std::string& aggregate_to = "") {
  Json role = cluster_role(name, Json::array(), aggregate_to);
  role["aggregationRule"] = {
      {"clusterRoleSelectors",
       Json::array({{{"matchLabels", {{"rbac.authorization.k8s.io/aggregate-to-" + name, "true"}}}}})}};
  return role;
}

Json binding(const std::string& name, const Strings& groups) {
  Json subjects = Json::array();
  for (const auto& group : groups) {
    subjects.push_back({{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "Group"}, {"name", group}});
  }
  return Json{{"apiVersion", "rbac.authorization.k8s.io/v1"},
              {"kind", "ClusterRoleBinding"},
              {"metadata", metadata(name)},
              {"roleRef", {{"apiGroup", "rbac.authorization.k8s.io"}, {"kind", "ClusterRole"}, {"name", name}}},
              {"subjects", subjects}};
}

// The namespaced workload resources view reads and edit writes (upstream's lists, shortened).
Json view_rules() {
  return Json::array({
      rule({""},
           {"configmaps",
            "endpoints",
            "persistentvolumeclaims",
            "persistentvolumeclaims/status",
            "pods",
            "pods/log",
            "pods/status",
            "replicationcontrollers",
            "replicationcontrollers/scale",
            "replicationcontrollers/status",
            "serviceaccounts",
            "services",
            "services/status",
            "events",
            "limitranges",
            "resourcequotas",
            "resourcequotas/status",
            "namespaces",
            "namespaces/status",
            "bindings"},
           read_verbs),
      rule({"apps"},
           {"controllerrevisions", "daemonsets", "daemonsets/status", "deployments", "deployments/scale",
            "deployments/status", "replicasets", "replicasets/scale", "replicasets/status", "statefulsets",
            "statefulsets/scale", "statefulsets/status"},
           read_verbs),
      rule({"autoscaling"}, {"horizontalpodautoscalers", "horizontalpodautoscalers/status"}, read_verbs),
      rule({"batch"}, {"cronjobs", "cronjobs/status", "jobs", "jobs/status"}, read_verbs),
      rule({"discovery.k8s.io"}, {"endpointslices"}, read_verbs),
      rule({"policy"}, {"poddisruptionbudgets", "poddisruptionbudgets/status"}, read_verbs),
      rule({"networking.k8s.io"}, {"ingresses", "ingresses/status", "networkpolicies"}, read_verbs),
  });
}

Json edit_rules() {
  return Json::array({
      rule({""}, {"pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "secrets", "services/proxy"},
           read_verbs),
      rule({""}, {"serviceaccounts"}, {"impersonate"}),
      rule({""},
           {"pods", "pods/attach", "pods/exec", "pods/portforward", "pods/proxy", "configmaps", "events",
            "persistentvolumeclaims", "replicationcontrollers", "replicationcontrollers/scale", "secrets",
            "serviceaccounts", "services", "services/proxy"},
           write_verbs),
      rule({""}, {"serviceaccounts/token"}, {"create"}),
      rule({"apps"},
           {"daemonsets", "deployments", "deployments/rollback", "deployments/scale", "replicasets",
            "replicasets/scale", "statefulsets", "statefulsets/scale"},
           write_verbs),
      rule({"autoscaling"}, {"horizontalpodautoscalers"}, write_verbs),
      rule({"batch"}, {"cronjobs", "jobs"}, write_verbs),
      rule({"networking.k8s.io"}, {"ingresses", "networkpolicies"}, write_verbs),
      rule({"policy"}, {"poddisruptionbudgets"}, write_verbs),
      rule({"discovery.k8s.io"}, {"endpointslices"}, write_verbs),
  });
}

Json admin_rules() {
  Strings all = read_verbs;
  all.insert(all.end(), write_verbs.begin(), write_verbs.end());
  return Json::array({
      rule({"rbac.authorization.k8s.io"}, {"rolebindings", "roles"}, all),
      rule({"authorization.k8s.io"}, {"localsubjectaccessreviews"}, {"create"}),
  });
}

std::vector<Json> defaults() {
  const Strings public_urls = {"/healthz", "/livez", "/readyz", "/version", "/version/"};
  Strings discovery_urls = {"/api", "/api/*", "/apis", "/apis/*", "/openapi", "/openapi/*"};
  discovery_urls.insert(discovery_urls.end(), public_urls.begin(), public_urls.end());
  return {
      cluster_role("cluster-admin", Json::array({rule({"*"}, {"*"}, {"*"}), url_rule({"*"}, {"*"})})),
      aggregated_role("admin"),
      aggregated_role("edit", "admin"),
      aggregated_role("view", "edit"),
      cluster_role("system:aggregate-to-admin", admin_rules(), "admin"),
      cluster_role("system:aggregate-to-edit", edit_rules(), "edit"),
      cluster_role("system:aggregate-to-view", view_rules(), "view"),
      cluster_role("system:discovery", Json::array({url_rule(discovery_urls, {"get"})})),
      cluster_role("system:public-info-viewer", Json::array({url_rule(public_urls, {"get"})})),
      cluster_role("system:basic-user",
                   Json::array({rule({"authorization.k8s.io"}, {"selfsubjectaccessreviews", "selfsubjectrulesreviews"},
                                     {"create"}),
                                rule({"authentication.k8s.io"}, {"selfsubjectreviews"}, {"create"})})),
      binding("cluster-admin", {"system:masters"}),
      binding("system:discovery", {"system:authenticated"}),
      binding("system:basic-user", {"system:authenticated"}),
      binding("system:public-info-viewer", {"system:authenticated", "system:unauthenticated"}),
  };
}

}  // namespace

void ensure_default_rbac(Cluster& cluster) {
  for (const Json& object : defaults()) {
    const auto kind = cluster.find_kind(
        GroupVersionKind{"rbac.authorization.k8s.io", "v1", object["kind"].get<std::string>()});
    if (!kind) return;
    try {
      cluster.create(*kind, object);
    } catch (const ApiError& e) {
      if (!is_already_exists(e.status())) throw;
    }
  }
}

}  // namespace rr::apiserver_detail
