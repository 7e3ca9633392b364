// The secure metrics endpoint's filter, as controller-runtime's
// filters.WithAuthenticationAndAuthorization (pkg/metrics/filters) builds it from k8s.io/apiserver's
// delegating authenticator and authorizer: the request's bearer token is checked with a TokenReview
// (authentication.k8s.io/v1), then the user it names is asked about with a SubjectAccessReview
// (authorization.k8s.io/v1: non-resource URL = the request's path, verb = the lower-cased method),
// both through the manager's API client. Answers are cached as upstream's defaults have it: a token
// for one minute (authenticated or not), an allowed request for five minutes, a denied one for 30
// seconds; errors are not cached.
#pragma once
#include <chrono>
#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "rr/http_server/connection.hpp"
#include "rr/reconcilers/logger.hpp"

namespace rr {

class Client;

struct MetricsAuthOptions {
  std::chrono::steady_clock::duration token_ttl = std::chrono::minutes(1);  // CacheTTL
  std::chrono::steady_clock::duration allow_ttl = std::chrono::minutes(5);  // AllowCacheTTL
  std::chrono::steady_clock::duration deny_ttl = std::chrono::seconds(30);  // DenyCacheTTL
  std::size_t max_entries = 4096;  // per cache; the oldest answers are dropped beyond it
};

class MetricsAuth {
 public:
  // Throws std::invalid_argument when `api` is null.
  MetricsAuth(std::shared_ptr<Client> api, Logger log, MetricsAuthOptions options = {});
  ~MetricsAuth();
  MetricsAuth(const MetricsAuth&) = delete;
  MetricsAuth& operator=(const MetricsAuth&) = delete;

  // nullopt when the request may be served; otherwise the answer to send: 401 "Unauthorized"
  // without a bearer token, 401 "Authentication failed" for a token the API server does not
  // authenticate (or when the TokenReview fails), 403 "Authorization denied for user <name>", 500
  // "Authorization for user <name> failed" when the SubjectAccessReview fails. Thread-safe.
  std::optional<http_server::Response> check(const http_server::Request& request, const std::string& path);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
