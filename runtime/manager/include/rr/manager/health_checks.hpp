// Named checks behind /healthz and /readyz, answered as controller-runtime's pkg/healthz does:
//   GET /healthz                → 200 "ok", or 500 with "[+]name ok" / "[-]name failed: reason withheld"
//                                 lines and "healthz check failed"
//   GET /healthz?verbose        → the lines even on success, then "healthz check passed"
//   GET /healthz?exclude=name   → that check is skipped ("[+]name excluded: ok")
//   GET /healthz/<name>         → that check alone: 200 "ok" or 500; 404 when unknown
// Kept apart from the HTTP server so the format is tested without sockets.
#pragma once
#include <functional>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

namespace rr {

// True when healthy. Called on the server's threads: must be thread-safe and quick.
using HealthCheck = std::function<bool()>;

struct HealthResponse {
  int status = 200;
  std::string body;
  std::string content_type = "text/plain; charset=utf-8";
};

class HealthChecks {
 public:
  // Throws std::invalid_argument when `name` is empty, has a '/', or is taken.
  void add(std::string name, HealthCheck check);
  std::vector<std::string> names() const;

  // `sub_path` is what follows the endpoint ("" or "/" for the aggregate, "/<name>" for one check).
  // The aggregate's last line says "healthz check passed|failed" for /readyz too, as
  // controller-runtime's handler does. A check that throws has failed.
  HealthResponse serve(std::string_view sub_path, bool verbose, const std::vector<std::string>& excludes) const;

 private:
  mutable std::mutex mutex_;
  std::map<std::string, HealthCheck, std::less<>> checks_;
};

}  // namespace rr
