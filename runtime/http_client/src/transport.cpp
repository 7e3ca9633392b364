#include "transport.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cstring>

#include "response_error.hpp"
#include "rr/client/call_deadline.hpp"

namespace rr::http_detail {
namespace {

constexpr std::size_t kMaxPooledHandles = 16;

template <class T>
void set(CURL* easy, CURLoption option, T value) {
  // Options set here exist in every libcurl >= 7.80 with TLS; a failure is a build problem.
  if (curl_easy_setopt(easy, option, value) != CURLE_OK) {
    throw std::runtime_error("curl_easy_setopt failed for option " + std::to_string(static_cast<int>(option)));
  }
}

void set_blob(CURL* easy, CURLoption option, const std::string& data) {
  curl_blob blob{const_cast<char*>(data.data()), data.size(), CURL_BLOB_COPY};
  set(easy, option, &blob);
}

std::string url_part(CURLU* url, CURLUPart part, unsigned flags = 0) {
  char* text = nullptr;
  if (curl_url_get(url, part, &text, flags) != CURLUE_OK || text == nullptr) return {};
  std::string out(text);
  curl_free(text);
  return out;
}

bool iequals_prefix(std::string_view line, std::string_view prefix) {
  if (line.size() < prefix.size()) return false;
  for (std::size_t i = 0; i < prefix.size(); ++i) {
    if (std::tolower(static_cast<unsigned char>(line[i])) != std::tolower(static_cast<unsigned char>(prefix[i]))) {
      return false;
    }
  }
  return true;
}

size_t append_body(char* data, size_t size, size_t count, void* body) {
  static_cast<std::string*>(body)->append(data, size * count);
  return size * count;
}

}  // namespace

size_t header_callback(char* data, size_t size, size_t count, void* header_state) {
  auto& state = *static_cast<HeaderState*>(header_state);
  const std::string_view line(data, size * count);
  if (iequals_prefix(line, "HTTP/")) {
    // A new header block (after a 100 Continue or a proxy's CONNECT answer): forget the last one.
    state = HeaderState{};
    return size * count;
  }
  if (iequals_prefix(line, "Retry-After:")) {
    state.retry_after = parse_retry_after(line.substr(std::strlen("Retry-After:")));
  } else if (iequals_prefix(line, "Warning:")) {
    for (auto& text : parse_warning_header(line.substr(std::strlen("Warning:"))))
      state.warnings.push_back(std::move(text));
  } else if (line == "\r\n" || line == "\n") {
    state.complete = true;
  }
  return size * count;
}

std::vector<std::string> parse_warning_header(std::string_view value) {
  std::vector<std::string> out;
  std::size_t i = 0;
  auto skip_space = [&] {
    while (i < value.size() && (value[i] == ' ' || value[i] == '\t' || value[i] == '\r' || value[i] == '\n')) ++i;
  };
  while (i < value.size()) {
    skip_space();
    // warn-code and warn-agent: two tokens before the quoted text.
    for (int token = 0; token < 2; ++token) {
      while (i < value.size() && value[i] != ' ' && value[i] != '"') ++i;
      skip_space();
    }
    if (i >= value.size() || value[i] != '"') break;  // not a warning we can read: stop, as client-go does
    std::string text;
    for (++i; i < value.size() && value[i] != '"'; ++i) {
      if (value[i] == '\\' && i + 1 < value.size()) ++i;
      text += value[i];
    }
    if (i >= value.size()) break;  // unterminated quote
    out.push_back(std::move(text));
    ++i;
    // An optional quoted date (it has a comma of its own), then a comma before the next warning.
    skip_space();
    if (i < value.size() && value[i] == '"') i = value.find('"', i + 1);
    if (i == std::string_view::npos) break;
    while (i < value.size() && value[i] != ',') ++i;
    if (i < value.size()) ++i;
  }
  return out;
}

CurlList& CurlList::operator=(CurlList&& other) noexcept {
  if (this != &other) {
    curl_slist_free_all(list);
    list = other.list;
    other.list = nullptr;
  }
  return *this;
}

void CurlList::append(const std::string& line) {
  curl_slist* next = curl_slist_append(list, line.c_str());
  if (next == nullptr) throw std::bad_alloc();
  list = next;
}

std::string PreparedRequest::error_text(CURLcode code) const {
  std::string text = curl_easy_strerror(code);
  if (error_buffer && error_buffer[0] != '\0') text += ": " + std::string(error_buffer.get());
  return text;
}

bool is_connection_failure(CURLcode code) noexcept {
  switch (code) {
    case CURLE_COULDNT_CONNECT:
    case CURLE_GOT_NOTHING:
    case CURLE_RECV_ERROR:
    case CURLE_SEND_ERROR:
    case CURLE_PARTIAL_FILE:
      return true;
    default:
      return false;
  }
}

Transport::Transport(RestConfig config, const HttpClientOptions& options)
    : config_(std::move(config)),
      options_(options),
      user_agent_(!options.user_agent.empty()          ? options.user_agent
                  : !config_.user_agent.empty() ? config_.user_agent
                                                : std::string("rrgen-http-client")),
      token_(config_.bearer_token, config_.bearer_token_file, options.token_file_max_age) {
  if (config_.exec && config_.bearer_token.empty() && config_.bearer_token_file.empty() &&
      config_.client_cert_data.empty()) {
    exec_ = std::make_unique<ExecAuthenticator>(*config_.exec, config_, options.exec_plugin_timeout);
  }
  std::unique_ptr<CURLU, decltype(&curl_url_cleanup)> url(curl_url(), &curl_url_cleanup);
  if (!url || curl_url_set(url.get(), CURLUPART_URL, config_.host.c_str(), 0) != CURLUE_OK) {
    throw ConfigError("API server URL \"" + config_.host + "\" is not a URL");
  }
  const std::string scheme = url_part(url.get(), CURLUPART_SCHEME);
  if (scheme != "https" && scheme != "http") {
    throw ConfigError("API server URL \"" + config_.host + "\": scheme must be https or http");
  }
  const std::string explicit_port = url_part(url.get(), CURLUPART_PORT);
  host_ = url_part(url.get(), CURLUPART_HOST) + (explicit_port.empty() ? "" : ":" + explicit_port);
  if (!config_.tls_server_name.empty() && scheme == "https") {
    // Connect to the configured host, but send and verify tls_server_name (SNI + certificate).
    const std::string host = url_part(url.get(), CURLUPART_HOST);
    const std::string port = url_part(url.get(), CURLUPART_PORT, CURLU_DEFAULT_PORT);
    connect_to_ = config_.tls_server_name + ":" + port + ":" + host + ":" + port;
    host_header_ = "Host: " + host + (explicit_port.empty() ? "" : ":" + explicit_port);
    curl_url_set(url.get(), CURLUPART_HOST, config_.tls_server_name.c_str(), 0);
  }
  base_url_ = url_part(url.get(), CURLUPART_URL);
  while (!base_url_.empty() && base_url_.back() == '/') base_url_.pop_back();
}

Transport::~Transport() {
  for (CURL* easy : pool_) curl_easy_cleanup(easy);
}

CURL* Transport::acquire_handle() {
  {
    std::lock_guard lock(pool_mutex_);
    if (!pool_.empty()) {
      CURL* easy = pool_.back();
      pool_.pop_back();
      return easy;
    }
  }
  CURL* easy = curl_easy_init();
  if (easy == nullptr) throw std::runtime_error("curl_easy_init failed");
  return easy;
}

void Transport::release_handle(CURL* easy) {
  {
    std::lock_guard lock(pool_mutex_);
    if (pool_.size() < kMaxPooledHandles) {
      pool_.push_back(easy);
      return;
    }
  }
  curl_easy_cleanup(easy);
}

PreparedRequest Transport::prepare(CURL* easy, const HttpRequest& request, bool streaming) {
  curl_easy_reset(easy);  // keeps the handle's live connections and caches
  PreparedRequest prepared;
  prepared.url = url(request.path_and_query);
  prepared.error_buffer = std::make_unique<char[]>(CURL_ERROR_SIZE);
  prepared.error_buffer[0] = '\0';
  set(easy, CURLOPT_ERRORBUFFER, prepared.error_buffer.get());
  set(easy, CURLOPT_URL, prepared.url.c_str());
  set(easy, CURLOPT_NOSIGNAL, 1L);
  set(easy, CURLOPT_SHARE, share_.get());
  set(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
  set(easy, CURLOPT_TCP_KEEPALIVE, 1L);
  set(easy, CURLOPT_USERAGENT, user_agent_.c_str());
  set(easy, CURLOPT_CONNECTTIMEOUT_MS, static_cast<long>(options_.connect_timeout.count()));
  if (!streaming) {
    // The configured timeout, shortened to what is left before a reconcile's deadline.
    std::chrono::milliseconds limit = config_.timeout;
    if (auto deadline = CallDeadline::current()) {
      const auto left = std::chrono::ceil<std::chrono::milliseconds>(*deadline - std::chrono::steady_clock::now());
      const auto bounded = std::max(left, std::chrono::milliseconds(1));
      if (limit.count() <= 0 || bounded < limit) limit = bounded;
    }
    if (limit.count() > 0) set(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(limit.count()));
  }

  if (request.method == "GET") {
    set(easy, CURLOPT_HTTPGET, 1L);
  } else {
    set(easy, CURLOPT_CUSTOMREQUEST, request.method.c_str());
  }
  if (!request.body.empty()) {
    set(easy, CURLOPT_POSTFIELDS, request.body.data());
    set(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(request.body.size()));
  }

  prepared.headers.append("Accept: " + request.accept);
  if (!request.body.empty()) prepared.headers.append("Content-Type: " + request.content_type);
  prepared.headers.append("Expect:");  // no 100-continue round trip for large bodies
  if (exec_) {
    try {
      prepared.exec_credential = exec_->credentials();
    } catch (const ExecPluginError& e) {
      throw TransportFailure(std::string("getting credentials: ") + e.what(), /*connection_failed=*/false);
    }
  }
  const ExecCredential* exec = prepared.exec_credential.get();
  if (const std::string token = exec != nullptr ? exec->token : token_.current(); !token.empty()) {
    prepared.headers.append("Authorization: Bearer " + token);
  }
  if (!host_header_.empty()) prepared.headers.append(host_header_);
  set(easy, CURLOPT_HTTPHEADER, prepared.headers.list);

  // TLS: verification stays on unless the configuration says otherwise (client-go's rule).
  if (config_.insecure_skip_tls_verify) {
    set(easy, CURLOPT_SSL_VERIFYPEER, 0L);
    set(easy, CURLOPT_SSL_VERIFYHOST, 0L);
  } else {
    set(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    set(easy, CURLOPT_SSL_VERIFYHOST, 2L);
  }
  if (!config_.ca_data.empty()) {
    // Only this CA, as client-go's CAData: not the system store as well.
    set(easy, CURLOPT_CAINFO, static_cast<char*>(nullptr));
    set(easy, CURLOPT_CAPATH, static_cast<char*>(nullptr));
    set_blob(easy, CURLOPT_CAINFO_BLOB, config_.ca_data);
  }
  // A plugin's certificate is compared by libcurl when it picks a pooled connection or a TLS
  // session to resume (the blob is part of its SSL configuration match), so a rotated certificate
  // gets new connections, as client-go's connection tracker closes the old ones.
  const std::string& client_cert = exec != nullptr ? exec->client_certificate_pem : config_.client_cert_data;
  const std::string& client_key = exec != nullptr ? exec->client_key_pem : config_.client_key_data;
  if (!client_cert.empty()) {
    set(easy, CURLOPT_SSLCERTTYPE, "PEM");
    set_blob(easy, CURLOPT_SSLCERT_BLOB, client_cert);
  }
  if (!client_key.empty()) {
    set(easy, CURLOPT_SSLKEYTYPE, "PEM");
    set_blob(easy, CURLOPT_SSLKEY_BLOB, client_key);
  }
  if (!connect_to_.empty()) {
    prepared.connect_to.append(connect_to_);
    set(easy, CURLOPT_CONNECT_TO, prepared.connect_to.list);
  }
  // Without proxy_url libcurl reads http_proxy / https_proxy / no_proxy, as Go's
  // ProxyFromEnvironment does.
  if (config_.proxy_url) set(easy, CURLOPT_PROXY, config_.proxy_url->c_str());
  return prepared;
}

HttpResponse Transport::perform(const HttpRequest& request) {
  struct Lease {
    Transport& transport;
    CURL* easy;
    ~Lease() { transport.release_handle(easy); }
  } lease{*this, acquire_handle()};

  HttpResponse response;
  HeaderState headers;
  PreparedRequest prepared = prepare(lease.easy, request, /*streaming=*/false);
  set(lease.easy, CURLOPT_WRITEFUNCTION, &append_body);
  set(lease.easy, CURLOPT_WRITEDATA, &response.body);
  set(lease.easy, CURLOPT_HEADERFUNCTION, &header_callback);
  set(lease.easy, CURLOPT_HEADERDATA, &headers);
  const CURLcode result = curl_easy_perform(lease.easy);
  if (result != CURLE_OK) throw TransportFailure(prepared.error_text(result), is_connection_failure(result));
  curl_easy_getinfo(lease.easy, CURLINFO_RESPONSE_CODE, &response.code);
  response.retry_after = headers.retry_after;
  response.warnings = std::move(headers.warnings);
  if (response.code == 401) unauthorized(prepared);
  return response;
}

void Transport::unauthorized(const PreparedRequest& prepared) {
  token_.invalidate();
  if (exec_) exec_->unauthorized(prepared.exec_credential);
}

}  // namespace rr::http_detail
