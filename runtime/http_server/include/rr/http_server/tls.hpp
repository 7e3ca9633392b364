// TLS for the HTTP server: a serving certificate read from two PEM files and read again whenever
// either file changes (as controller-runtime's certwatcher does for the webhook server), so that a
// rotated Secret takes effect at the next handshake without a restart; and the TLS dial that
// checks a server is up (controller-runtime's webhook StartedChecker).
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

struct ssl_ctx_st;

namespace rr::http_server {

class CertificateFiles {
 public:
  using Log = std::function<void(std::string_view message)>;

  // Reads the pair now; throws std::runtime_error naming the file and OpenSSL's reason when it
  // cannot ("tls: cannot load certificate /certs/tls.crt: ..."). `log` hears about reloads.
  CertificateFiles(std::string cert_file, std::string key_file, Log log = {});
  // A certificate held in memory (a generated self-signed one): never reloaded. Throws as above.
  static std::shared_ptr<CertificateFiles> from_pem(const std::string& cert_pem, const std::string& key_pem);

  // The server context for the next handshake. When a file's inode, size or modification time
  // changed since the last read, the pair is read again first; a pair that does not load (half
  // written, or a key that is not the certificate's) keeps the previous context and is logged
  // once, and read again at its next change. Thread-safe.
  std::shared_ptr<ssl_ctx_st> context();
  // Times a changed pair was loaded (not the first load), for tests and logs.
  int reloads() const;

 private:
  struct Stamp {
    long long inode = 0, size = 0, modified_ns = 0;
    bool operator==(const Stamp&) const = default;
  };
  CertificateFiles() = default;
  std::optional<std::pair<Stamp, Stamp>> stamps() const;  // nullopt without files

  std::string cert_file_, key_file_;
  Log log_;
  mutable std::mutex mutex_;
  std::shared_ptr<ssl_ctx_st> context_;
  std::optional<std::pair<Stamp, Stamp>> loaded_;  // the stamps last tried, loaded or not
  int reloads_ = 0;
};

// A TLS handshake with host:port (the certificate is not verified: this checks that the server
// answers TLS, not who it is). nullopt when it succeeds within `timeout`, else why it did not.
std::optional<std::string> tls_dial(const std::string& host, int port, std::chrono::milliseconds timeout);

}  // namespace rr::http_server
