// libcurl process state: curl_global_init once, and one CURLSH per HttpClient sharing the DNS cache
// and TLS sessions between its easy handles (under locks). Connections are not shared through
// CURLSH (libcurl documents that as unsafe across threads); each pooled easy handle keeps its own.
#pragma once
#include <curl/curl.h>

#include <array>
#include <mutex>

namespace rr::http_detail {

void ensure_curl_global_init();

class CurlShare {
 public:
  CurlShare();
  ~CurlShare();
  CurlShare(const CurlShare&) = delete;
  CurlShare& operator=(const CurlShare&) = delete;
  CURLSH* get() const noexcept { return share_; }

 private:
  static void lock(CURL*, curl_lock_data data, curl_lock_access, void* self);
  static void unlock(CURL*, curl_lock_data data, void* self);
  CURLSH* share_;
  std::array<std::mutex, CURL_LOCK_DATA_LAST> mutexes_;
};

}  // namespace rr::http_detail
