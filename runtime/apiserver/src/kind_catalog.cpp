#include "kind_catalog.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <tuple>

#include "builtin_resources.hpp"
#include "rr/cluster/cluster.hpp"

namespace rr::apiserver_detail {

namespace {

struct BuiltinNames {
  std::string_view group;
  std::string_view plural;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
};

// The short names and categories a 1.35 API server's discovery gives the built-in resources
// (each resource's registry storage declares them; the OpenAPI documents do not carry them).
const std::vector<BuiltinNames>& builtin_names() {
  static const std::vector<BuiltinNames> table = {
      {"", "componentstatuses", {"cs"}, {}},
      {"", "configmaps", {"cm"}, {}},
      {"", "endpoints", {"ep"}, {}},
      {"", "events", {"ev"}, {}},
      {"", "limitranges", {"limits"}, {}},
      {"", "namespaces", {"ns"}, {}},
      {"", "nodes", {"no"}, {}},
      {"", "persistentvolumeclaims", {"pvc"}, {}},
      {"", "persistentvolumes", {"pv"}, {}},
      {"", "pods", {"po"}, {"all"}},
      {"", "replicationcontrollers", {"rc"}, {"all"}},
      {"", "resourcequotas", {"quota"}, {}},
      {"", "serviceaccounts", {"sa"}, {}},
      {"", "services", {"svc"}, {"all"}},
      {"admissionregistration.k8s.io", "mutatingwebhookconfigurations", {}, {"api-extensions"}},
      {"admissionregistration.k8s.io", "validatingwebhookconfigurations", {}, {"api-extensions"}},
      {"admissionregistration.k8s.io", "validatingadmissionpolicies", {}, {"api-extensions"}},
      {"admissionregistration.k8s.io", "validatingadmissionpolicybindings", {}, {"api-extensions"}},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicies", {}, {"api-extensions"}},
      {"admissionregistration.k8s.io", "mutatingadmissionpolicybindings", {}, {"api-extensions"}},
      {"apiextensions.k8s.io", "customresourcedefinitions", {"crd", "crds"}, {"api-extensions"}},
      {"apiregistration.k8s.io", "apiservices", {}, {"api-extensions"}},
      {"apps", "daemonsets", {"ds"}, {"all"}},
      {"apps", "deployments", {"deploy"}, {"all"}},
      {"apps", "replicasets", {"rs"}, {"all"}},
      {"apps", "statefulsets", {"sts"}, {"all"}},
      {"autoscaling", "horizontalpodautoscalers", {"hpa"}, {"all"}},
      {"batch", "cronjobs", {"cj"}, {"all"}},
      {"batch", "jobs", {}, {"all"}},
      {"certificates.k8s.io", "certificatesigningrequests", {"csr"}, {}},
      {"events.k8s.io", "events", {"ev"}, {}},
      {"networking.k8s.io", "ingresses", {"ing"}, {}},
      {"networking.k8s.io", "networkpolicies", {"netpol"}, {}},
      {"policy", "poddisruptionbudgets", {"pdb"}, {}},
      {"scheduling.k8s.io", "priorityclasses", {"pc"}, {}},
      {"storage.k8s.io", "storageclasses", {"sc"}, {}},
      {"storage.k8s.io", "volumeattributesclasses", {"vac"}, {}},
  };
  return table;
}

// (class, major, minor): class 0 GA, 1 beta, 2 alpha, 3 not a Kubernetes version.
std::tuple<int, long, long> version_key(std::string_view v) {
  auto number = [](std::string_view text, std::size_t& at) {
    long n = -1;
    const std::size_t start = at;
    while (at < text.size() && std::isdigit(static_cast<unsigned char>(text[at]))) ++at;
    if (at > start) std::from_chars(text.data() + start, text.data() + at, n);
    return n;
  };
  if (v.size() < 2 || v[0] != 'v') return {3, 0, 0};
  std::size_t at = 1;
  const long major = number(v, at);
  if (major <= 0) return {3, 0, 0};
  if (at == v.size()) return {0, major, 0};
  for (auto [word, cls] : {std::pair<std::string_view, int>{"beta", 1}, {"alpha", 2}}) {
    if (v.substr(at, word.size()) == word) {
      std::size_t minor_at = at + word.size();
      const long minor = number(v, minor_at);
      if (minor > 0 && minor_at == v.size()) return {cls, major, minor};
    }
  }
  return {3, 0, 0};
}

}  // namespace

bool version_precedes(std::string_view a, std::string_view b) {
  const auto [ca, ma, na] = version_key(a);
  const auto [cb, mb, nb] = version_key(b);
  if (ca != cb) return ca < cb;
  if (ca == 3) return a < b;  // alphabetical among non-Kubernetes versions
  if (ma != mb) return ma > mb;
  if (na != nb) return na > nb;
  return false;
}

KindCatalog::KindCatalog(std::shared_ptr<Cluster> cluster) : cluster_(std::move(cluster)) {}

std::vector<KindInfo> KindCatalog::served() const {
  std::vector<KindInfo> kinds = cluster_->kinds();
  {
    std::lock_guard lock(mutex_);
    std::erase_if(kinds, [&](const KindInfo& k) { return hidden_.contains(k.gvk); });
  }
  std::sort(kinds.begin(), kinds.end(), [](const KindInfo& a, const KindInfo& b) {
    if (a.gvk.group != b.gvk.group) return a.gvk.group < b.gvk.group;
    if (a.gvk.version != b.gvk.version) return version_precedes(a.gvk.version, b.gvk.version);
    return a.plural < b.plural;
  });
  return kinds;
}

std::optional<KindInfo> KindCatalog::find(std::string_view group, std::string_view version,
                                          std::string_view plural) const {
  for (KindInfo& kind : cluster_->kinds()) {
    if (kind.gvk.group == group && kind.gvk.version == version && kind.plural == plural) {
      std::lock_guard lock(mutex_);
      if (hidden_.contains(kind.gvk)) return std::nullopt;
      return std::move(kind);
    }
  }
  return std::nullopt;
}

bool KindCatalog::is_served(const GroupVersionKind& gvk) const {
  if (!cluster_->find_kind(gvk)) return false;
  std::lock_guard lock(mutex_);
  return !hidden_.contains(gvk);
}

ResourceNames KindCatalog::names(const KindInfo& kind) const {
  {
    std::lock_guard lock(mutex_);
    if (auto it = names_.find(kind.gvk); it != names_.end()) return it->second;
  }
  ResourceNames out;
  out.singular = kind.gvk.kind;
  std::transform(out.singular.begin(), out.singular.end(), out.singular.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (const KindCodec* row = builtin_resource(kind)) {
    out.singular = row->resource.singular;
    out.verbs = verbs_of(row->resource);
    out.has_scale = row->resource.has_scale;
  }
  for (const auto& entry : builtin_names()) {
    if (entry.group == kind.gvk.group && entry.plural == kind.plural) {
      out.short_names = entry.short_names;
      out.categories = entry.categories;
    }
  }
  return out;
}

void KindCatalog::set_names(const GroupVersionKind& gvk, ResourceNames names) {
  std::lock_guard lock(mutex_);
  names_[gvk] = std::move(names);
}

void KindCatalog::hide(const GroupVersionKind& gvk) {
  std::lock_guard lock(mutex_);
  hidden_.insert(gvk);
}

void KindCatalog::show(const GroupVersionKind& gvk) {
  std::lock_guard lock(mutex_);
  hidden_.erase(gvk);
}

}  // namespace rr::apiserver_detail
