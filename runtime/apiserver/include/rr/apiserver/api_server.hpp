// The in-memory rr::Cluster served over HTTP(S) with the Kubernetes REST API, on 127.0.0.1 only:
// discovery, CRUD, patches, watch streams, Status errors, CRD registration, an OpenAPI v3 index
// for kubectl's validation check, optional TLS with client-certificate and bearer-token
// authentication, optional RBAC authorization with impersonation and the access reviews, and
// fault injection. See docs/runtime/19-local-cluster.md.
#pragma once
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/apiserver/fault_injection.hpp"
#include "rr/core/json.hpp"

namespace rr {

class Cluster;
namespace node {
class PodLogSource;
}

// A certificate and key, each as PEM text or a file (a file wins when both are set).
struct TlsOptions {
  std::string cert_pem, cert_file;
  std::string key_pem, key_file;
  // Client-certificate authentication: certificates this CA signed authenticate a request.
  std::string client_ca_pem, client_ca_file;
  // The CA that kubeconfigs should trust (certificate-authority-data); the server certificate
  // itself when empty (right for a self-signed one).
  std::string ca_pem;
};

// A bearer token that authenticates as a named user (the API server's --token-auth-file rows).
struct StaticToken {
  std::string token;
  std::string user;
  std::vector<std::string> groups;  // system:authenticated is added
};

// Who decides whether an authenticated request may run (the API server's --authorization-mode).
enum class AuthorizationMode {
  AlwaysAllow,  // every request runs; the access reviews answer "allowed"
  RBAC,         // the system:masters group, then Roles, ClusterRoles and their bindings
};

// Credentials a kubeconfig carries: a bearer token and/or a client certificate (PEM).
struct KubeconfigUser {
  std::string name = "rrgen";
  std::string token;
  std::string client_certificate_pem;
  std::string client_key_pem;
};

struct ApiServerOptions {
  // Only a loopback address is accepted: "127.0.0.1" or "localhost".
  std::string bind_address = "127.0.0.1";
  int port = 0;  // 0: an ephemeral port
  std::optional<TlsOptions> tls;
  // Accepted bearer tokens. With tokens (these or static_tokens) or a client CA configured, every request except
  // /healthz, /livez, /readyz and /version must authenticate (401 Status otherwise).
  // They carry no user: each acts as the development admin (see development_user).
  std::vector<std::string> bearer_tokens;
  // Bearer tokens of named users; they authenticate as bearer_tokens do.
  std::vector<StaticToken> static_tokens;
  // RBAC, as kind and every real cluster (the development admin is in system:masters, so nothing
  // changes for it); AlwaysAllow is the opt-in. The default ClusterRoles and bindings (cluster-admin
  // bound to system:masters, admin/edit/view, system:*) are created in both modes.
  AuthorizationMode authorization = AuthorizationMode::RBAC;
  // Who a request is when no authentication is configured, and who a bearer_tokens token is.
  std::string development_user = "rrgen-admin";
  std::vector<std::string> development_groups = {"system:masters"};
  FaultOptions faults;
  // Worker threads: every open watch holds one.
  std::size_t threads = 64;
  // Calls register_builtin_kinds() on the cluster at construction.
  bool register_builtin_kinds = true;
  // The credentials kubeconfig_yaml() writes when it is given none; when this is empty too, the
  // first bearer token.
  KubeconfigUser kubeconfig_user;
  std::string kubeconfig_cluster_name = "rrgen-local";
};

class ApiServer {
 public:
  // Validates the options (std::invalid_argument: non-loopback address, unreadable TLS material).
  ApiServer(std::shared_ptr<Cluster> cluster, ApiServerOptions options = {});
  ~ApiServer();  // stop()
  ApiServer(const ApiServer&) = delete;
  ApiServer& operator=(const ApiServer&) = delete;

  // Binds and returns once the server accepts connections; throws std::runtime_error when it
  // cannot bind. Also starts the CRD controller (CRDs written through the C++ API register too).
  void start();
  // Ends open watch streams, stops accepting and joins the workers (an idle keep-alive
  // connection holds a worker up to one second). Idempotent.
  void stop();
  bool running() const;

  int port() const;
  std::string url() const;  // "http://127.0.0.1:<port>" or "https://..."
  const std::shared_ptr<Cluster>& cluster() const;

  // A kubeconfig (one cluster, user and context, all current) for this server, with the CA data
  // when serving TLS. The user defaults as ApiServerOptions::kubeconfig_user says.
  std::string kubeconfig_yaml() const;
  std::string kubeconfig_yaml(const KubeconfigUser& user) const;
  // Writes kubeconfig_yaml() to `path` with mode 0600; throws std::runtime_error on failure.
  void write_kubeconfig(const std::string& path) const;
  void write_kubeconfig(const std::string& path, const KubeconfigUser& user) const;

  // Fault injection, changeable while serving. Setting options resets the random sequence to
  // the new seed; counters keep counting.
  void set_faults(const FaultOptions& faults);
  FaultOptions faults() const;
  FaultCounters fault_counters() const;

  // Where GET pods/<name>/log reads (rr::node::NodeAgent); without one, or for a pod it does not
  // run, a pod's log is empty.
  void set_pod_log_source(std::shared_ptr<node::PodLogSource> source);
  // What the node agent mints its pods' ServiceAccount tokens with (rr::node::TokenMinter):
  // the TokenRequest subresource's answer for namespace, ServiceAccount and request body, or an
  // ApiError. Valid while this server lives.
  std::function<Json(const std::string&, const std::string&, const Json&)> token_minter() const;
  // The CA a client in a pod trusts (a container's ca.crt): the kubeconfigs' CA; "" without TLS.
  std::string serving_ca_pem() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
