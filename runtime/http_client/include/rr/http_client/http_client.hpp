// rr::HttpClient: rr::Client over the Kubernetes REST API (HTTP/1.1 + TLS, libcurl underneath).
// One HttpClient is meant to be shared by every thread of an operator. Failures throw rr::ApiError:
// with the server's Status when it answered, and with code 0 and reason "ServiceUnavailable" when
// no HTTP response was received (connection refused, TLS failure, timeout), its message naming
// the method and URL.
#pragma once
#include <chrono>
#include <memory>
#include <string>

#include "rr/client/client.hpp"
#include "rr/http_client/request_metrics.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr {

// When a failed request is tried again (docs/runtime/20-http-client.md, "Retries").
struct RetryPolicy {
  // Retries after the first attempt; client-go's maxRetries for Retry-After is 10. 0 disables.
  int max_retries = 10;
  // Exponential backoff (initial, doubled per retry, capped) when the response names no Retry-After.
  std::chrono::milliseconds initial_backoff{200};
  std::chrono::milliseconds max_backoff{5000};
  // A server's Retry-After is honoured up to this cap.
  std::chrono::milliseconds max_retry_after{30000};
};

struct HttpClientOptions {
  RetryPolicy retry{};
  // Overrides RestConfig::user_agent; both empty = "rrgen-http-client".
  std::string user_agent{};
  // TCP connect + TLS handshake bound (Go's net.Dialer default in client-go: 30 s).
  std::chrono::milliseconds connect_timeout{30000};
  // bearer_token_file is re-read when the cached token is older than this (client-go: 1 minute),
  // and after any 401.
  std::chrono::milliseconds token_file_max_age{60000};
  // One run of a kubeconfig exec credential plugin (RestConfig::exec) may take this long before
  // it is killed and the request fails; client-go waits forever. Long enough for a browser login.
  std::chrono::milliseconds exec_plugin_timeout{120000};
  // Told of every request (rest_client_* metrics); none by default. See also set_metrics().
  std::shared_ptr<HttpClientMetrics> metrics{};
};

class HttpClient : public Client {
 public:
  // Throws ConfigError when config.host is not an http:// or https:// URL.
  explicit HttpClient(RestConfig config, HttpClientOptions options = {});
  ~HttpClient() override;
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  // Uses the client's connection, authentication, rate limiting and retries for any path (e.g.
  // "/version"); returns the JSON body of a 2xx answer, else throws ApiError.
  Json get_path(const std::string& path_and_query);

  const RestConfig& config() const noexcept;

  // Replaces HttpClientOptions::metrics (nullptr: none), for a sink made after the client (the
  // manager's registry); requests already under way finish with the sink they started with.
  void set_metrics(std::shared_ptr<HttpClientMetrics> metrics);

 protected:
  // Discovery (GET /api/v1 or /apis/<group>/<version>), cached per group-version; a kind missing
  // from the cache re-reads its group-version once (a CRD may have been registered since).
  KindInfo do_kind_info(const GroupVersionKind& gvk) const override;
  Json do_get(const KindInfo& kind, const ObjectKey& key) override;
  Json do_list(const KindInfo& kind, const ListOptions& opts) override;
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override;
  // PatchType::Apply requires opts.field_manager (else a 400 BadRequest, without a request).
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override;
  // The server's answer: the object (terminating or last state), or a Status{Success} body.
  Json do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) override;
  void do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) override;
  // Returns once the server has answered the watch request (throws ApiError on a non-2xx answer);
  // events are then read on a background thread until the server ends the stream or stop().
  std::unique_ptr<Watch> do_watch(const KindInfo& kind, const ListOptions& opts) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr
