// One HTTP exchange with the API server over libcurl: the URL, TLS, proxy, timeouts and headers
// of every request, a pool of easy handles (each keeps its own live connections) and the single
// attempt of a request. Retries and rate limiting live above it (http_client.cpp).
#pragma once
#include <curl/curl.h>

#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "bearer_token.hpp"
#include "curl_share.hpp"
#include "exec_authenticator.hpp"
#include "rr/http_client/http_client.hpp"

namespace rr::http_detail {

struct HttpRequest {
  std::string method;          // GET, POST, PUT, PATCH, DELETE
  std::string path_and_query;  // "/api/v1/namespaces/default/configmaps?limit=5"
  std::string body;            // sent when not empty
  std::string content_type = "application/json";
  std::string accept = "application/json";  // the Accept header
};

struct HttpResponse {
  long code = 0;
  std::string body;
  std::optional<std::int32_t> retry_after;
  std::vector<std::string> warnings;  // the texts of the answer's Warning headers
};

// No HTTP answer. `connection_failed`: refused, reset or closed before an answer (retryable for
// GET); false for timeouts and TLS failures.
class TransportFailure : public std::runtime_error {
 public:
  TransportFailure(const std::string& detail, bool connection_failed)
      : std::runtime_error(detail), connection_failed_(connection_failed) {}
  bool connection_failed() const noexcept { return connection_failed_; }

 private:
  bool connection_failed_;
};

// The state of a response's header block, fed by header_callback.
struct HeaderState {
  std::optional<std::int32_t> retry_after;
  std::vector<std::string> warnings;
  bool complete = false;  // the final (non-1xx) header block has ended
};
size_t header_callback(char* data, size_t size, size_t count, void* header_state);
// The texts of one Warning header's value (RFC 7234: `299 - "text" [date]`, comma-separated;
// backslash escapes in the quoted text), as client-go's warning handler reads them.
std::vector<std::string> parse_warning_header(std::string_view value);

// curl_slist owner.
struct CurlList {
  curl_slist* list = nullptr;
  CurlList() = default;
  CurlList(const CurlList&) = delete;
  CurlList& operator=(const CurlList&) = delete;
  CurlList(CurlList&& other) noexcept : list(other.list) { other.list = nullptr; }
  CurlList& operator=(CurlList&& other) noexcept;
  ~CurlList() { curl_slist_free_all(list); }
  void append(const std::string& line);
};

// What must outlive a prepared transfer.
struct PreparedRequest {
  CurlList headers;
  CurlList connect_to;
  std::string url;
  std::unique_ptr<char[]> error_buffer;  // CURL_ERROR_SIZE bytes
  std::shared_ptr<const ExecCredential> exec_credential;  // what the exec plugin gave, if used
  std::string error_text(CURLcode code) const;
};

bool is_connection_failure(CURLcode code) noexcept;

class Transport {
 public:
  Transport(RestConfig config, const HttpClientOptions& options);
  ~Transport();
  Transport(const Transport&) = delete;
  Transport& operator=(const Transport&) = delete;

  std::string url(std::string_view path_and_query) const { return base_url_ + std::string(path_and_query); }
  // Sets every option of `request` on a freshly reset `easy` except the write and header
  // callbacks. `streaming` (a watch) has no overall timeout. Throws TransportFailure
  // ("getting credentials: ...") when an exec plugin gives no credentials.
  PreparedRequest prepare(CURL* easy, const HttpRequest& request, bool streaming);
  // One attempt. Throws TransportFailure when no answer came.
  HttpResponse perform(const HttpRequest& request);
  // A 401 came back for `prepared`: the token file is re-read, and the exec plugin run again
  // unless its credentials have changed since, before the next request.
  void unauthorized(const PreparedRequest& prepared);
  const RestConfig& config() const noexcept { return config_; }
  // host[:port] of config().host, as Go's url.URL.Host: the rest_client_* metrics' host label.
  const std::string& host() const noexcept { return host_; }

 private:
  CURL* acquire_handle();
  void release_handle(CURL* easy);

  const RestConfig config_;
  const HttpClientOptions options_;
  std::string base_url_;       // scheme://host[:port][/prefix], with tls_server_name as its host
  std::string host_;
  std::string connect_to_;     // "name:port:host:port" when tls_server_name redirects the URL
  std::string host_header_;    // "Host: host[:port]" in that case
  std::string user_agent_;
  BearerToken token_;
  // With a kubeconfig exec plugin and no token, token file or client certificate (client-go's
  // UpdateTransportConfig skips the plugin when one of them is set).
  std::unique_ptr<ExecAuthenticator> exec_;
  CurlShare share_;
  std::mutex pool_mutex_;
  std::vector<CURL*> pool_;
};

}  // namespace rr::http_detail
