// The objects NamespaceDefaults keeps in a namespace, and one namespace's settle: pure functions
// over rr::Cluster, so a test can drive them without threads.
#pragma once
#include <optional>
#include <string>

#include "rr/client/kind.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/json.hpp"

namespace rr::kube_controllers::detail {

inline constexpr const char* default_service_account = "default";
inline constexpr const char* root_ca_config_map = "kube-root-ca.crt";

struct Kinds {
  KindInfo namespace_;
  KindInfo service_account;
  KindInfo config_map;
};
// The three kinds as the cluster registered them; nullopt when one is missing.
std::optional<Kinds> find_kinds(const Cluster& cluster);

// What the serviceaccounts controller creates: only the name, nothing else (no token Secret
// since 1.24).
Json default_service_account_of(const std::string& ns);
// What the root-ca-cert-publisher writes: ca.crt and its description annotation.
Json root_ca_config_map_of(const std::string& ns, const std::string& ca_pem);

// Whether a namespace takes new objects (not deleted, not Terminating).
bool active(const Json& namespace_object);

// Creates what is missing in `ns` and puts back an edited ConfigMap's data. Throws rr::ApiError
// (a 409 or a namespace that started terminating) for the caller to retry; returns whether it
// wrote anything.
bool settle_namespace(Cluster& cluster, const Kinds& kinds, const std::string& ns, const std::string& ca_pem);

// Whether `ns` already has everything (no write needed).
bool namespace_settled(const Cluster& cluster, const Kinds& kinds, const std::string& ns, const std::string& ca_pem);

}  // namespace rr::kube_controllers::detail
