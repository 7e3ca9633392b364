// The bearer token of each request: RestConfig::bearer_token, or the content of
// bearer_token_file re-read when older than a maximum age or after a 401 (client-go's
// cachingTokenSource; projected service-account tokens rotate). When the file cannot be read the
// last good token (else the literal token) is used, as client-go does.
#pragma once
#include <chrono>
#include <mutex>
#include <optional>
#include <string>

namespace rr::http_detail {

class BearerToken {
 public:
  using clock = std::chrono::steady_clock;
  BearerToken(std::string token, std::string file, std::chrono::milliseconds max_age);
  std::string current();      // "" = no Authorization header
  void invalidate();          // after a 401: re-read the file on the next request

 private:
  const std::string literal_;
  const std::string file_;
  const std::chrono::milliseconds max_age_;
  std::mutex mutex_;
  std::string cached_;
  std::optional<clock::time_point> read_at_;
};

}  // namespace rr::http_detail
