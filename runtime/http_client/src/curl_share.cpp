#include "curl_share.hpp"

#include <stdexcept>

namespace rr::http_detail {

void ensure_curl_global_init() {
  // Never paired with curl_global_cleanup: other libraries in the process may use libcurl too.
  static const CURLcode result = curl_global_init(CURL_GLOBAL_DEFAULT);
  if (result != CURLE_OK) throw std::runtime_error("curl_global_init failed");
}

CurlShare::CurlShare() : share_((ensure_curl_global_init(), curl_share_init())) {
  if (share_ == nullptr) throw std::runtime_error("curl_share_init failed");
  curl_share_setopt(share_, CURLSHOPT_LOCKFUNC, &CurlShare::lock);
  curl_share_setopt(share_, CURLSHOPT_UNLOCKFUNC, &CurlShare::unlock);
  curl_share_setopt(share_, CURLSHOPT_USERDATA, this);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
  curl_share_setopt(share_, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
}

CurlShare::~CurlShare() { curl_share_cleanup(share_); }

void CurlShare::lock(CURL*, curl_lock_data data, curl_lock_access, void* self) {
  static_cast<CurlShare*>(self)->mutexes_.at(static_cast<std::size_t>(data)).lock();
}

void CurlShare::unlock(CURL*, curl_lock_data data, void* self) {
  static_cast<CurlShare*>(self)->mutexes_.at(static_cast<std::size_t>(data)).unlock();
}

}  // namespace rr::http_detail
