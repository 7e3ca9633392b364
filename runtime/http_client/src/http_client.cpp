#include "rr/http_client/http_client.hpp"

#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>
#include <thread>
#include <utility>

#include "discovery.hpp"
#include "http_watch.hpp"
#include "rate_limiter.hpp"
#include "response_error.hpp"
#include "rest_paths.hpp"
#include "retry.hpp"
#include "rr/client/call_deadline.hpp"
#include "transport.hpp"

namespace rr {

using http_detail::HttpRequest;
using http_detail::HttpResponse;

namespace {

constexpr std::chrono::milliseconds kDefaultWatchHeaderTimeout{60000};

bool is_success(long code) { return code >= 200 && code <= 299; }

Json parse_body(const HttpRequest& request, const HttpResponse& response, const std::string& url) {
  if (response.body.empty()) return Json::object();
  Json body = Json::parse(response.body, nullptr, /*allow_exceptions=*/false);
  if (body.is_discarded()) {
    throw ApiError(api_errors::internal_error("the answer to " + request.method + " \"" + url + "\" is not JSON"));
  }
  return body;
}

// Tells the sink, if any, how long a call took, however it ends.
struct LatencyScope {
  HttpClientMetrics* sink;
  std::string_view verb;
  std::string_view host;
  std::chrono::steady_clock::time_point start;
  ~LatencyScope() {
    if (sink != nullptr) {
      sink->request_latency(verb, host,
                            std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    }
  }
};

// client-go refuses a request for a named object without a name before sending it.
void require_name(std::string_view name) {
  if (name.empty()) throw ApiError(api_errors::bad_request("resource name may not be empty"));
}

}  // namespace

struct HttpClient::Impl {
  Impl(RestConfig config, const HttpClientOptions& opts)
      : limiter(config.qps, config.burst), transport(std::move(config), opts), options(opts), metrics(opts.metrics) {}

  // Runs `attempt` (one exchange) until it succeeds or retry_delay() says stop; the rate limiter
  // is consulted before every attempt, as client-go's tryThrottle is. The metrics sink hears of
  // every attempt and, once the call ends (also by an exception), of its whole duration.
  template <class Attempt>
  HttpResponse with_retries(const HttpRequest& request, Attempt&& attempt) {
    const std::shared_ptr<HttpClientMetrics> sink = metrics_sink();
    const LatencyScope latency{sink.get(), request.method, transport.host(), std::chrono::steady_clock::now()};
    // A reconcile's deadline (call_deadline.hpp) ends the request where client-go's context would.
    const std::optional<CallDeadline::time_point> deadline = CallDeadline::current();
    auto past_deadline = [&](std::chrono::steady_clock::duration ahead = {}) {
      return deadline && std::chrono::steady_clock::now() + ahead >= *deadline;
    };
    auto deadline_error = [&] {
      return deadline_exceeded(request.method + " \"" + transport.url(request.path_and_query) + "\"");
    };
    for (int retry = 1;; ++retry) {
      if (past_deadline()) throw deadline_error();
      const std::chrono::duration<double> throttled = limiter.acquire();
      if (past_deadline()) throw deadline_error();
      if (sink) sink->rate_limiter_latency(request.method, transport.host(), throttled.count());
      http_detail::AttemptOutcome outcome;
      HttpResponse response;
      std::string failure;
      try {
        response = attempt();
        outcome.http_code = response.code;
        outcome.retry_after = response.retry_after;
      } catch (const http_detail::TransportFailure& e) {
        outcome.connection_failed = e.connection_failed();
        failure = e.what();
      }
      if (sink) {
        sink->request_result(outcome.http_code == 0 ? "<error>" : std::to_string(outcome.http_code), request.method,
                             transport.host());
      }
      if (is_success(outcome.http_code)) return response;
      const auto delay = http_detail::retry_delay(options.retry, request.method, outcome, retry);
      if (outcome.http_code == 0 && past_deadline()) throw deadline_error();  // curl's timeout was the deadline
      if (delay && past_deadline(*delay)) throw deadline_error();
      if (!delay) {
        if (outcome.http_code == 0) {
          throw ApiError(http_detail::transport_failure(request.method, transport.url(request.path_and_query), failure));
        }
        throw ApiError(http_detail::status_from_response(response.code, response.body, response.retry_after));
      }
      std::this_thread::sleep_for(*delay);
    }
  }

  Json call(const HttpRequest& request, std::vector<std::string>* warnings = nullptr) {
    HttpResponse response = with_retries(request, [&] { return transport.perform(request); });
    if (warnings) warnings->insert(warnings->end(), response.warnings.begin(), response.warnings.end());
    return parse_body(request, response, transport.url(request.path_and_query));
  }

  Json call(std::string method, std::string path, std::string body = {},
            std::string content_type = "application/json") {
    return call(
        HttpRequest{std::move(method), std::move(path), std::move(body), std::move(content_type), "application/json"});
  }

  // A write: the server's warnings go where the options say.
  Json write(std::string method, std::string path, std::string body, const WriteOptions& opts,
             std::string content_type = "application/json") {
    return call(
        HttpRequest{std::move(method), std::move(path), std::move(body), std::move(content_type), "application/json"},
        opts.warnings);
  }

  std::shared_ptr<HttpClientMetrics> metrics_sink() {
    const std::lock_guard lock(metrics_mutex);
    return metrics;
  }

  http_detail::RateLimiter limiter;
  http_detail::Transport transport;
  const HttpClientOptions options;
  std::mutex metrics_mutex;
  std::shared_ptr<HttpClientMetrics> metrics;  // guarded by metrics_mutex
  std::mutex discovery_mutex;
  std::map<std::pair<std::string, std::string>, std::vector<KindInfo>> discovered;  // (group, version)
};

HttpClient::HttpClient(RestConfig config, HttpClientOptions options)
    : impl_(std::make_unique<Impl>(std::move(config), options)) {}

HttpClient::~HttpClient() = default;

const RestConfig& HttpClient::config() const noexcept { return impl_->transport.config(); }

void HttpClient::set_metrics(std::shared_ptr<HttpClientMetrics> metrics) {
  const std::lock_guard lock(impl_->metrics_mutex);
  impl_->metrics = std::move(metrics);
}

KindInfo HttpClient::do_kind_info(const GroupVersionKind& gvk) const {
  const auto find = [&](const std::vector<KindInfo>& kinds) -> const KindInfo* {
    for (const KindInfo& k : kinds) {
      if (k.gvk.kind == gvk.kind) return &k;
    }
    return nullptr;
  };
  const auto key = std::make_pair(gvk.group, gvk.version);
  std::lock_guard lock(impl_->discovery_mutex);
  if (const auto it = impl_->discovered.find(key); it != impl_->discovered.end()) {
    if (const KindInfo* k = find(it->second)) return *k;
  }
  // Unknown group-version, or a kind it did not list last time: read it (again).
  Status no_match;
  no_match.code = 404;
  no_match.reason = "NotFound";
  no_match.message = "no matches for kind \"" + gvk.kind + "\" in version \"" + gvk.api_version() + "\"";
  no_match.details_group = gvk.group;
  no_match.details_kind = gvk.kind;
  Json resource_list;
  try {
    resource_list = impl_->call("GET", http_detail::group_version_path(gvk));
  } catch (const ApiError& e) {
    if (is_not_found(e.status())) throw ApiError(no_match);
    throw;
  }
  auto& kinds = impl_->discovered[key];
  kinds = http_detail::kinds_of_resource_list(gvk.group, gvk.version, resource_list);
  if (const KindInfo* k = find(kinds)) return *k;
  throw ApiError(no_match);
}

Json HttpClient::do_get(const KindInfo& kind, const ObjectKey& key) {
  require_name(key.name);
  return impl_->call("GET", http_detail::resource_path(kind, key.namespace_, key.name));
}

Json HttpClient::do_list(const KindInfo& kind, const ListOptions& opts) {
  return impl_->call(HttpRequest{
      "GET",
      http_detail::resource_path(kind, opts.namespace_) + http_detail::list_query(opts, /*watch=*/false).str(),
      {},
      "application/json",
      http_detail::list_accept(opts, /*watch=*/false)});
}

Json HttpClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  const ObjectKey key = key_of(object);
  return impl_->write(
      "POST",
      http_detail::resource_path(kind, key.namespace_) + http_detail::write_query(opts, /*apply_patch=*/false).str(),
      object.dump(), opts);
}

Json HttpClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  const ObjectKey key = key_of(object);
  require_name(key.name);
  return impl_->write("PUT",
                      http_detail::resource_path(kind, key.namespace_, key.name) +
                          http_detail::write_query(opts, /*apply_patch=*/false).str(),
                      object.dump(), opts);
}

Json HttpClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  const ObjectKey key = key_of(object);
  require_name(key.name);
  return impl_->write("PUT",
                      http_detail::resource_path(kind, key.namespace_, key.name, "status") +
                          http_detail::write_query(opts, /*apply_patch=*/false).str(),
                      object.dump(), opts);
}

Json HttpClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                          std::string_view subresource, const WriteOptions& opts) {
  require_name(key.name);
  const bool apply = type == PatchType::Apply;
  if (apply && opts.field_manager.empty()) {
    throw ApiError(api_errors::bad_request("PATCH with apply content (server-side apply) requires a fieldManager"));
  }
  return impl_->write("PATCH",
                      http_detail::resource_path(kind, key.namespace_, key.name, subresource) +
                          http_detail::write_query(opts, apply).str(),
                      std::string(body), opts, std::string(content_type(type)));
}

Json HttpClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  require_name(key.name);
  return impl_->call("DELETE", http_detail::resource_path(kind, key.namespace_, key.name) +
                                   http_detail::delete_query(opts).str(),
                     http_detail::delete_body(opts).dump());
}

void HttpClient::do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  http_detail::Query query = http_detail::list_query(list, /*watch=*/false);
  query.append(http_detail::delete_query(opts));
  impl_->call("DELETE", http_detail::resource_path(kind, list.namespace_) + query.str(),
              http_detail::delete_body(opts).dump());
}

std::unique_ptr<Watch> HttpClient::do_watch(const KindInfo& kind, const ListOptions& opts) {
  const HttpRequest request{
      "GET",
      http_detail::resource_path(kind, opts.namespace_) + http_detail::list_query(opts, /*watch=*/true).str(),
      {},
      "application/json",
      http_detail::list_accept(opts, /*watch=*/true)};
  const auto& timeout = impl_->transport.config().timeout;
  const auto header_timeout = timeout.count() > 0 ? timeout : kDefaultWatchHeaderTimeout;
  auto stream = std::make_unique<http_detail::HttpWatch>(impl_->transport);
  impl_->with_retries(request, [&] { return stream->open(request, header_timeout); });
  stream->run();
  return stream;
}

Json HttpClient::get_path(const std::string& path_and_query) { return impl_->call("GET", path_and_query); }

}  // namespace rr
