// The kinds the HTTP front end serves: the cluster's registered kinds minus those whose CRD was
// deleted (rr::Cluster cannot unregister a kind), with the names discovery reports for them
// (singular, short names, categories).
#pragma once
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "rr/client/kind.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

struct ResourceNames {
  std::string singular;
  std::vector<std::string> short_names;
  std::vector<std::string> categories;
  // Empty: every verb of a stored resource (a CRD's kind).
  std::vector<std::string> verbs;
  bool has_scale = false;  // the scale subresource
};

class KindCatalog {
 public:
  explicit KindCatalog(std::shared_ptr<Cluster> cluster);

  // Served kinds ordered by group, version priority (see version_precedes), plural.
  std::vector<KindInfo> served() const;
  std::optional<KindInfo> find(std::string_view group, std::string_view version, std::string_view plural) const;
  bool is_served(const GroupVersionKind& gvk) const;

  // Names given by a CRD win; otherwise rr::builtin's facts and the built-in short names;
  // otherwise the lowercase kind.
  ResourceNames names(const KindInfo& kind) const;
  void set_names(const GroupVersionKind& gvk, ResourceNames names);

  void hide(const GroupVersionKind& gvk);
  void show(const GroupVersionKind& gvk);

 private:
  std::shared_ptr<Cluster> cluster_;
  mutable std::mutex mutex_;
  std::set<GroupVersionKind> hidden_;
  std::map<GroupVersionKind, ResourceNames> names_;
};

// Kubernetes version priority: GA before beta before alpha before anything else; higher major
// first, then higher minor (v1 > v1beta2 > v1beta1 > v1alpha1 > foo). True when `a` precedes `b`.
bool version_precedes(std::string_view a, std::string_view b);

}  // namespace rr::apiserver_detail
