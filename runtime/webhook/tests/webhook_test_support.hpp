// What the webhook server's tests, the manager's webhook test and bench_webhook share: a
// serving-certs directory with the development CA's server pair, and a keep-alive HTTPS client
// (libcurl) trusting that CA.
#pragma once
#include <curl/curl.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/apiserver/dev_certificates.hpp"

namespace rr::webhook::test {

// A temporary directory holding tls.crt and tls.key of a fresh development CA; removed at the end.
struct ServingCerts {
  rr::DevCertificates pair = rr::make_dev_certificates();
  std::filesystem::path dir;
  ServingCerts() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-webhook-XXXXXX").string();
    if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
    dir = pattern;
    std::ofstream(dir / "tls.crt") << pair.server_cert_pem;
    std::ofstream(dir / "tls.key") << pair.server_key_pem;
  }
  ~ServingCerts() { std::filesystem::remove_all(dir); }
  ServingCerts(const ServingCerts&) = delete;
  ServingCerts& operator=(const ServingCerts&) = delete;
};

// A keep-alive HTTPS client trusting one CA given as PEM; with no CA, plain HTTP (the benchmark's
// baseline). `reuse` false opens a new connection (and TLS handshake) per request.

struct HttpsReply {
  long status = 0;
  std::string content_type;
  std::string body;
  long new_connections = 0;  // connections this request opened (0: one was reused)
};

class HttpsClient {
 public:
  explicit HttpsClient(std::string ca_pem, bool reuse = true)
      : ca_pem_(std::move(ca_pem)), reuse_(reuse), curl_(curl_easy_init()) {
    if (curl_ == nullptr) throw std::runtime_error("curl_easy_init failed");
  }
  ~HttpsClient() {
    curl_easy_cleanup(curl_);
    curl_slist_free_all(headers_);
  }
  HttpsClient(const HttpsClient&) = delete;
  HttpsClient& operator=(const HttpsClient&) = delete;

  HttpsReply post(int port, std::string_view path, std::string_view body,
                  std::string_view content_type = "application/json", std::string_view method = "POST") {
    HttpsReply reply;
    const std::string url = (ca_pem_.empty() ? "http" : "https") + std::string("://127.0.0.1:") + std::to_string(port) +
                            std::string(path);
    curl_slist_free_all(headers_);
    headers_ = curl_slist_append(nullptr, ("Content-Type: " + std::string(content_type)).c_str());
    curl_blob ca{ca_pem_.data(), ca_pem_.size(), CURL_BLOB_NOCOPY};
    curl_easy_setopt(curl_, CURLOPT_URL, url.c_str());
    if (!ca_pem_.empty()) curl_easy_setopt(curl_, CURLOPT_CAINFO_BLOB, &ca);
    curl_easy_setopt(curl_, CURLOPT_FORBID_REUSE, reuse_ ? 0L : 1L);
    curl_easy_setopt(curl_, CURLOPT_HTTPHEADER, headers_);
    curl_easy_setopt(curl_, CURLOPT_CUSTOMREQUEST, std::string(method).c_str());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDS, body.data());
    curl_easy_setopt(curl_, CURLOPT_POSTFIELDSIZE, static_cast<long>(body.size()));
    curl_easy_setopt(curl_, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl_, CURLOPT_TIMEOUT_MS, 10000L);
    curl_easy_setopt(curl_, CURLOPT_WRITEFUNCTION, &append);
    curl_easy_setopt(curl_, CURLOPT_WRITEDATA, &reply.body);
    const CURLcode result = curl_easy_perform(curl_);
    if (result != CURLE_OK) throw std::runtime_error(std::string("curl: ") + curl_easy_strerror(result));
    curl_easy_getinfo(curl_, CURLINFO_RESPONSE_CODE, &reply.status);
    char* type = nullptr;
    curl_easy_getinfo(curl_, CURLINFO_CONTENT_TYPE, &type);
    if (type != nullptr) reply.content_type = type;
    curl_easy_getinfo(curl_, CURLINFO_NUM_CONNECTS, &reply.new_connections);
    return reply;
  }

 private:
  static std::size_t append(char* data, std::size_t size, std::size_t count, void* out) {
    static_cast<std::string*>(out)->append(data, size * count);
    return size * count;
  }
  std::string ca_pem_;
  bool reuse_ = true;
  CURL* curl_;
  curl_slist* headers_ = nullptr;
};

}  // namespace rr::webhook::test
