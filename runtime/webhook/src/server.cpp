// The webhook server on rr::http_server with TLS (see server.hpp).
#include "rr/webhook/server.hpp"

#include <exception>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <variant>

#include "rr/http_server/server.hpp"
#include "rr/http_server/tls.hpp"

namespace rr::webhook {
namespace {

// controller-runtime's admission.Errored: allowed=false, status {code, message}.
AdmissionResponse errored(std::string uid, std::int32_t code, std::string message) {
  AdmissionResponse response;
  response.uid = std::move(uid);
  response.allowed = false;
  Status& status = response.status.emplace();
  status.code = code;
  status.message = std::move(message);
  return response;
}

Reply json_reply(std::string body) { return Reply{200, "application/json", std::move(body)}; }

Reply text_reply(int status, std::string text) { return Reply{status, "text/plain; charset=utf-8", std::move(text)}; }

// Parameters of a media type ("application/json; charset=utf-8") do not change what it is.
std::string_view media_type(std::string_view content_type) {
  content_type = content_type.substr(0, content_type.find(';'));
  while (!content_type.empty() && content_type.back() == ' ') content_type.remove_suffix(1);
  return content_type;
}

}  // namespace

struct Server::Impl {
  ServerOptions options;
  std::map<std::string, std::variant<AdmissionHandler, ConversionHandler>, std::less<>> routes;
  std::optional<http_server::Server> http;
  int port = 0;

  void log(std::string_view message) const {
    if (options.log) options.log(message);
  }

  void add_route(std::string path, std::variant<AdmissionHandler, ConversionHandler> handler) {
    if (http) throw std::logic_error("rr::webhook::Server: handlers are registered before start()");
    if (!path.starts_with('/')) throw std::invalid_argument("webhook path \"" + path + "\" does not start with '/'");
    if (routes.contains(path)) throw std::invalid_argument("webhook path \"" + path + "\" is already registered");
    routes.emplace(std::move(path), std::move(handler));
  }

  Reply admit(const AdmissionHandler& handler, std::string_view content_type, std::string_view body) const {
    if (body.empty()) return json_reply(encode_admission_review_response(errored("", 400, "request body is empty")));
    if (media_type(content_type) != "application/json") {
      return json_reply(encode_admission_review_response(
          errored("", 400, "contentType=" + std::string(content_type) + ", expected application/json")));
    }
    AdmissionRequest request;
    try {
      request = decode_admission_review_request(body);
    } catch (const ReviewError& e) {
      log(std::string("unable to decode the request: ") + e.what());
      return json_reply(encode_admission_review_response(errored("", 400, e.what())));
    }
    AdmissionResponse response;
    try {
      response = handler(request);
    } catch (const std::exception& e) {
      log("admission handler failed for request " + request.uid + ": " + e.what());
      response = errored("", 500, e.what());
    }
    response.uid = request.uid;  // the API server refuses an answer for another request
    return json_reply(encode_admission_review_response(response));
  }

  Reply convert(const ConversionHandler& handler, std::string_view body) const {
    ConversionRequest request;
    try {
      request = decode_conversion_review_request(body);
    } catch (const ReviewError& e) {
      log(std::string("failed to read conversion request: ") + e.what());
      return text_reply(400, e.what());
    }
    ConversionResponse response;
    try {
      response = handler(request);
    } catch (const std::exception& e) {
      log("conversion handler failed for request " + request.uid + ": " + e.what());
      response = ConversionResponse{};
      response.failure.emplace().message = e.what();
    }
    response.uid = request.uid;
    return json_reply(encode_conversion_review_response(response));
  }

  Reply respond(std::string_view path, std::string_view content_type, std::string_view body) const {
    const auto route = routes.find(path);
    if (route == routes.end()) return text_reply(404, "404 page not found\n");
    if (const auto* admission = std::get_if<AdmissionHandler>(&route->second)) {
      return admit(*admission, content_type, body);
    }
    return convert(std::get<ConversionHandler>(route->second), body);
  }
};

Server::Server(ServerOptions options) : impl_(std::make_unique<Impl>()) { impl_->options = std::move(options); }

Server::~Server() { stop(); }

void Server::handle_admission(std::string path, AdmissionHandler handler) {
  impl_->add_route(std::move(path), std::move(handler));
}

void Server::handle_conversion(std::string path, ConversionHandler handler) {
  impl_->add_route(std::move(path), std::move(handler));
}

bool Server::has_handlers() const { return !impl_->routes.empty(); }

int Server::start() {
  if (impl_->http) throw std::logic_error("rr::webhook::Server::start: already started");
  const ServerOptions& options = impl_->options;
  const std::filesystem::path dir(options.cert_dir);
  http_server::ServerOptions http;
  http.max_connections = options.max_connections;
  http.connection.methods = {"POST"};
  http.connection.max_body = options.max_body;
  // The API server keeps its connections to a webhook; Go's server answers them without a limit.
  http.connection.max_requests = std::numeric_limits<std::size_t>::max();
  http.connection.read_timeout = options.read_timeout;
  http.connection.write_timeout = options.write_timeout;
  http.tls = std::make_shared<http_server::CertificateFiles>((dir / options.cert_name).string(),
                                                             (dir / options.key_name).string(), options.log);
  const Impl* impl = impl_.get();
  impl_->http.emplace(
      [impl](const http_server::Request& request, const http_server::Target& target) {
        Reply reply = impl->respond(target.path, request.field("content-type"), request.body);
        http_server::Response response;
        response.status = reply.status;
        response.content_type = std::move(reply.content_type);
        response.body = std::move(reply.body);
        return response;
      },
      http);
  try {
    impl_->port = impl_->http->start(options.host, options.port);
  } catch (...) {
    impl_->http.reset();
    throw;
  }
  return impl_->port;
}

void Server::stop() {
  if (!impl_->http) return;
  impl_->http->stop();
  impl_->http.reset();
  impl_->port = 0;
}

int Server::port() const { return impl_->port; }

std::optional<std::string> Server::check_started(std::chrono::milliseconds timeout) const {
  if (impl_->port == 0) return "webhook server has not been started yet";
  const std::string& host = impl_->options.host;
  const std::string dial_host = host.empty() || host == "0.0.0.0" ? "127.0.0.1" : host == "::" ? "::1" : host;
  if (auto failed = http_server::tls_dial(dial_host, impl_->port, timeout)) {
    return "webhook server is not reachable: " + *failed;
  }
  return std::nullopt;
}

Reply Server::respond(std::string_view path, std::string_view content_type, std::string_view body) const {
  return impl_->respond(path, content_type, body);
}

}  // namespace rr::webhook
