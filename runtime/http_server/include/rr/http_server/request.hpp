// The head of an HTTP/1.1 request (request line and header fields, RFC 9112) as the server reads
// it off a socket (the manager's /metrics and probes, the webhook server). It is outside input: every size is capped
// and anything malformed becomes an error status, never an exception or a crash. Pure functions, unit-tested and fuzzed
// (fuzz_http_request) without sockets.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace rr::http_server {

struct RequestLimits {
  std::size_t max_request_line = 8 * 1024;  // longer: 414 URI Too Long
  std::size_t max_head = 16 * 1024;         // request line, fields and the blank line: 431 beyond
  std::size_t max_fields = 100;             // more header fields: 431
};

struct Request {
  std::string method;  // case-sensitive, as RFC 9110 has it
  std::string target;  // as sent (still percent-encoded)
  int minor_version = 1;  // HTTP/1.<minor>
  std::vector<std::pair<std::string, std::string>> fields;  // names lower-cased, values trimmed
  bool keep_alive = true;       // from the version and the Connection field
  bool has_body = false;        // Content-Length > 0 or a Transfer-Encoding
  std::size_t content_length = 0;  // from Content-Length
  bool chunked = false;            // a Transfer-Encoding: framing this server does not read (411)
  std::string body;                // filled by the connection when the server reads bodies (ConnectionOptions)

  // The first value of the field `lower_case_name`, or "" when absent.
  std::string_view field(std::string_view lower_case_name) const;
};

enum class HeadStatus { incomplete, complete, error };

struct HeadResult {
  HeadStatus status = HeadStatus::incomplete;
  std::size_t consumed = 0;  // complete: the head's bytes, blank line included
  Request request;           // complete
  int error_status = 0;      // error: 400, 414, 431 or 505
  std::string error;         // error: why, one line for the response body
};

// Reads one request head from the start of `bytes`. `incomplete` asks for more bytes (the limits
// are checked on what has come so far, so the caller never buffers more than max_head plus one
// read). Empty lines before the request line are skipped (RFC 9112 §2.2).
HeadResult parse_request_head(std::string_view bytes, const RequestLimits& limits = {});

// A request target split into its percent-decoded path and query parameters ('+' reads as a space
// in the query, as Go's url.ParseQuery has it). Origin form ("/p?q") and absolute form
// ("http://host/p?q"); nullopt for anything else or a malformed escape (400).
struct Target {
  std::string path;
  std::vector<std::pair<std::string, std::string>> query;

  bool has_param(std::string_view key) const;
  std::vector<std::string> param_values(std::string_view key) const;
};
std::optional<Target> split_target(std::string_view target);

}  // namespace rr::http_server
