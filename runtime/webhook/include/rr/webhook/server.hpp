// The webhook server, as controller-runtime's webhook.Server: HTTPS (TLS 1.2+) on port 9443 with
// the serving certificate of <cert_dir>/tls.crt and tls.key, read again when those files change
// (a rotated Secret serves from the next handshake, no restart), one path per registered handler,
// POST with Content-Type application/json only.
//
// Admission paths answer every request with an AdmissionReview, as controller-runtime's do: a bad
// request (empty body, another content type, a review that does not decode) is a response with
// allowed=false and status code 400, and a handler that throws is one with code 500 and its
// message. Conversion paths answer a review that does not decode with HTTP 400, and a handler that
// throws with a Failure result. See docs/runtime/29-webhooks.md.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "rr/webhook/admission_review.hpp"
#include "rr/webhook/conversion_review.hpp"

namespace rr::webhook {

using AdmissionHandler = std::function<AdmissionResponse(const AdmissionRequest&)>;
using ConversionHandler = std::function<ConversionResponse(const ConversionRequest&)>;

struct ServerOptions {
  std::string host = "0.0.0.0";  // every interface, as controller-runtime's "" host
  int port = 9443;               // 0: the system picks one (tests)
  std::string cert_dir = "/tmp/k8s-webhook-server/serving-certs";
  std::string cert_name = "tls.crt";
  std::string key_name = "tls.key";
  // controller-runtime's maxRequestSize: larger bodies get 413.
  std::size_t max_body = 7 * 1024 * 1024;
  std::size_t max_connections = 64;
  std::chrono::milliseconds read_timeout{10000};  // for a request (or the handshake) to arrive
  std::chrono::milliseconds write_timeout{10000};
  // Hears certificate reloads, refused reviews and handler failures (one line each).
  std::function<void(std::string_view message)> log;
};

// What a path answers to one request, without HTTP around it.
struct Reply {
  int status = 200;
  std::string content_type = "application/json";
  std::string body;
};

class Server {
 public:
  explicit Server(ServerOptions options = {});
  ~Server();  // stops
  Server(const Server&) = delete;
  Server& operator=(const Server&) = delete;

  // Before start(). A path is registered once ("/validate-apps-v1-deployment"); throws
  // std::invalid_argument for a path taken or not starting with '/'.
  void handle_admission(std::string path, AdmissionHandler handler);
  void handle_conversion(std::string path, ConversionHandler handler);
  bool has_handlers() const;

  // Reads the certificate, binds and serves; returns the bound port. Throws std::runtime_error
  // when the certificate does not load or the address cannot be bound, std::logic_error when
  // already started.
  int start();
  void stop();       // idempotent
  int port() const;  // 0 before start()

  // controller-runtime's StartedChecker, for /healthz: nullopt when a TLS handshake with the
  // server succeeds; otherwise why not ("webhook server has not been started yet",
  // "webhook server is not reachable: <dial error>").
  std::optional<std::string> check_started(std::chrono::milliseconds timeout = std::chrono::seconds(10)) const;

  // The answer of `path` to a POST of `body` with `content_type`, as the HTTPS server gives it
  // (404 for an unknown path). For benchmarks and tests that leave the network out.
  Reply respond(std::string_view path, std::string_view content_type, std::string_view body) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace rr::webhook
