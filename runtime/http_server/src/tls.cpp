// The reloading serving certificate and the TLS dial (see tls.hpp).
#include "rr/http_server/tls.hpp"

#include "stream.hpp"

#include <fcntl.h>
#include <netdb.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <stdexcept>
#include <system_error>

namespace rr::http_server {
namespace {

using Clock = std::chrono::steady_clock;

// OpenSSL's reason for the last failure on this thread, and the queue emptied.
std::string openssl_reason() {
  std::string reason;
  while (const unsigned long code = ERR_get_error()) {
    std::array<char, 256> text{};
    ERR_error_string_n(code, text.data(), text.size());
    if (reason.empty()) reason = text.data();  // the first is the root cause
  }
  return reason.empty() ? "unknown error" : reason;
}

std::shared_ptr<ssl_ctx_st> load_pair(const std::string& cert_file, const std::string& key_file) {
  const std::shared_ptr<ssl_ctx_st> context(SSL_CTX_new(TLS_server_method()), &SSL_CTX_free);
  if (!context) throw std::runtime_error("tls: cannot create a context: " + openssl_reason());
  SSL_CTX* ctx = context.get();
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);  // controller-runtime's webhook server minimum
  // Non-blocking writes are retried with what is left, and may be partial.
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  if (SSL_CTX_use_certificate_chain_file(ctx, cert_file.c_str()) != 1) {
    throw std::runtime_error("tls: cannot load certificate " + cert_file + ": " + openssl_reason());
  }
  if (SSL_CTX_use_PrivateKey_file(ctx, key_file.c_str(), SSL_FILETYPE_PEM) != 1) {
    if (ERR_GET_REASON(ERR_peek_error()) == X509_R_KEY_VALUES_MISMATCH) {
      ERR_clear_error();
      throw std::runtime_error("tls: private key " + key_file + " does not match certificate " + cert_file);
    }
    throw std::runtime_error("tls: cannot load private key " + key_file + ": " + openssl_reason());
  }
  if (SSL_CTX_check_private_key(ctx) != 1) {
    ERR_clear_error();
    throw std::runtime_error("tls: private key " + key_file + " does not match certificate " + cert_file);
  }
  return context;
}

// The same from PEM text in memory.
std::shared_ptr<ssl_ctx_st> load_pem_pair(const std::string& cert_pem, const std::string& key_pem) {
  const std::shared_ptr<ssl_ctx_st> context(SSL_CTX_new(TLS_server_method()), &SSL_CTX_free);
  if (!context) throw std::runtime_error("tls: cannot create a context: " + openssl_reason());
  SSL_CTX* ctx = context.get();
  SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
  SSL_CTX_set_mode(ctx, SSL_MODE_ENABLE_PARTIAL_WRITE | SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER);
  const std::unique_ptr<BIO, decltype(&BIO_free)> cert_bio(
      BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size())), &BIO_free);
  const std::unique_ptr<BIO, decltype(&BIO_free)> key_bio(
      BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size())), &BIO_free);
  const std::unique_ptr<X509, decltype(&X509_free)> cert(
      cert_bio ? PEM_read_bio_X509(cert_bio.get(), nullptr, nullptr, nullptr) : nullptr, &X509_free);
  const std::unique_ptr<EVP_PKEY, decltype(&EVP_PKEY_free)> key(
      key_bio ? PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr) : nullptr, &EVP_PKEY_free);
  if (!cert || SSL_CTX_use_certificate(ctx, cert.get()) != 1) {
    throw std::runtime_error("tls: cannot load certificate: " + openssl_reason());
  }
  if (!key || SSL_CTX_use_PrivateKey(ctx, key.get()) != 1 || SSL_CTX_check_private_key(ctx) != 1) {
    throw std::runtime_error("tls: cannot load private key: " + openssl_reason());
  }
  return context;
}

struct Fd {
  int fd = -1;
  ~Fd() {
    if (fd >= 0) ::close(fd);
  }
};

// Waits for `events` until `deadline`; false on timeout or error.
bool wait_for(int fd, short events, Clock::time_point deadline) {
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return false;
    pollfd poll_fd{fd, events, 0};
    const int ready = ::poll(&poll_fd, 1, static_cast<int>(left));
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return false;
  }
}

std::string socket_errno_text() { return std::system_category().message(errno); }

}  // namespace

CertificateFiles::CertificateFiles(std::string cert_file, std::string key_file, Log log)
    : cert_file_(std::move(cert_file)), key_file_(std::move(key_file)), log_(std::move(log)) {
  loaded_ = stamps();
  context_ = load_pair(cert_file_, key_file_);
}

std::shared_ptr<CertificateFiles> CertificateFiles::from_pem(const std::string& cert_pem, const std::string& key_pem) {
  std::shared_ptr<CertificateFiles> in_memory(new CertificateFiles());
  in_memory->context_ = load_pem_pair(cert_pem, key_pem);
  return in_memory;
}

std::optional<std::pair<CertificateFiles::Stamp, CertificateFiles::Stamp>> CertificateFiles::stamps() const {
  if (cert_file_.empty()) return std::nullopt;
  const auto stamp_of = [](const std::string& file) -> std::optional<Stamp> {
    struct stat info {};
    if (::stat(file.c_str(), &info) != 0) return std::nullopt;
    return Stamp{static_cast<long long>(info.st_ino), static_cast<long long>(info.st_size),
                 static_cast<long long>(info.st_mtim.tv_sec) * 1'000'000'000LL + info.st_mtim.tv_nsec};
  };
  const auto cert = stamp_of(cert_file_);
  const auto key = stamp_of(key_file_);
  if (!cert || !key) return std::nullopt;
  return std::pair{*cert, *key};
}

std::shared_ptr<ssl_ctx_st> CertificateFiles::context() {
  const std::lock_guard lock(mutex_);
  const auto now = stamps();
  if (now == loaded_) return context_;
  loaded_ = now;
  if (!now) {
    if (log_)
      log_("tls: certificate files missing, serving the previous certificate: " + cert_file_ + ", " + key_file_);
    return context_;
  }
  try {
    context_ = load_pair(cert_file_, key_file_);
    ++reloads_;
    if (log_) log_("tls: certificate reloaded from " + cert_file_ + " and " + key_file_);
  } catch (const std::runtime_error& e) {
    if (log_) log_(std::string(e.what()) + "; serving the previous certificate");
  }
  return context_;
}

int CertificateFiles::reloads() const {
  const std::lock_guard lock(mutex_);
  return reloads_;
}

std::optional<std::string> tls_dial(const std::string& host, int port, std::chrono::milliseconds timeout) {
  const detail::SigpipeBlock no_sigpipe;
  const auto deadline = Clock::now() + timeout;
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICSERV;
  addrinfo* found = nullptr;
  const std::string address = host.empty() ? "127.0.0.1" : host;
  if (const int failed = ::getaddrinfo(address.c_str(), std::to_string(port).c_str(), &hints, &found)) {
    return std::string("dial tcp ") + address + ": " + ::gai_strerror(failed);
  }
  const std::unique_ptr<addrinfo, decltype(&::freeaddrinfo)> addresses(found, &::freeaddrinfo);
  const std::string where = "dial tcp " + address + ":" + std::to_string(port);
  Fd socket{::socket(found->ai_family, found->ai_socktype | SOCK_CLOEXEC | SOCK_NONBLOCK, found->ai_protocol)};
  if (socket.fd < 0) return where + ": socket: " + socket_errno_text();
  if (::connect(socket.fd, found->ai_addr, found->ai_addrlen) != 0) {
    if (errno != EINPROGRESS) return where + ": connect: " + socket_errno_text();
    if (!wait_for(socket.fd, POLLOUT, deadline)) return where + ": i/o timeout";
    int error = 0;
    socklen_t size = sizeof error;
    ::getsockopt(socket.fd, SOL_SOCKET, SO_ERROR, &error, &size);
    if (error != 0) return where + ": connect: " + std::system_category().message(error);
  }
  const std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free);
  if (!context) return "tls: cannot create a context: " + openssl_reason();
  const std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(context.get()), &SSL_free);
  if (!ssl || SSL_set_fd(ssl.get(), socket.fd) != 1) return "tls: cannot create a session: " + openssl_reason();
  SSL_set_connect_state(ssl.get());
  while (true) {
    const int done = SSL_connect(ssl.get());
    if (done == 1) break;
    const int error = SSL_get_error(ssl.get(), done);
    if (error == SSL_ERROR_WANT_READ || error == SSL_ERROR_WANT_WRITE) {
      ERR_clear_error();
      if (!wait_for(socket.fd, error == SSL_ERROR_WANT_READ ? POLLIN : POLLOUT, deadline)) {
        return where + ": TLS handshake timeout";
      }
      continue;
    }
    return where + ": TLS handshake failed: " + openssl_reason();
  }
  SSL_shutdown(ssl.get());
  return std::nullopt;
}

}  // namespace rr::http_server
