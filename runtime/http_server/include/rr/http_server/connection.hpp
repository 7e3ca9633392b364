// One accepted connection of the HTTP server, plain or TLS: request heads read with limits,
// bodies read up to a limit when the server takes them (Content-Length only), pipelined requests
// answered in order, the allowed methods passed to the handler (405 for any other), and the
// connection kept alive or closed as HTTP/1.1 says.
#pragma once
#include <chrono>
#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rr/http_server/request.hpp"

struct ssl_ctx_st;

namespace rr::http_server {

struct Response {
  int status = 200;
  std::string content_type = "text/plain; charset=utf-8";
  std::string body;
  std::vector<std::pair<std::string, std::string>> fields;  // more header fields
};

// Answers a request of an allowed method (a HEAD's answer body is dropped, Content-Length kept);
// runs on the connection's thread. An exception becomes a 500.
using Handler = std::function<Response(const Request& request, const Target& target)>;

struct ConnectionOptions {
  RequestLimits limits;
  // For a whole request head to arrive, counted from the previous answer (or the accept): bounds
  // idle keep-alive connections and slow senders alike.
  std::chrono::milliseconds read_timeout{5000};
  std::chrono::milliseconds write_timeout{5000};  // for a whole answer to be taken
  std::size_t max_requests = 100;                 // on one connection; the last says Connection: close
  std::vector<std::string> methods = {"GET", "HEAD"};  // the handler's; others get 405 with Allow
  // The largest request body read into Request::body; 0: bodies are not read (a request with
  // one is answered, then the connection closes). Larger: 413, and the connection closes.
  std::size_t max_body = 0;
};

// Serves `fd` until the client closes it, a request asks to, an error or a timeout ends it, or
// `wake_fd` becomes readable (the server stops); then closes `fd`. With `tls`, the TLS handshake
// comes first (within read_timeout). Never throws.
void serve_connection(int fd, int wake_fd, const Handler& handler, const ConnectionOptions& options,
                      ssl_ctx_st* tls = nullptr);

// The bytes of an answer: status line, Content-Type, Content-Length, Date, the response's fields,
// Connection when needed, and the body unless `head_only`.
std::string format_response(const Response& response, bool head_only, bool keep_alive, int minor_version);

}  // namespace rr::http_server
