// Plain and TLS streams over a non-blocking socket (see stream.hpp).
#include "stream.hpp"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <sys/socket.h>

#include <cerrno>
#include <climits>
#include <csignal>
#include <ctime>

namespace rr::http_server::detail {
namespace {

Io socket_result(ssize_t result, std::size_t& moved, Io would_block) {
  if (result > 0) {
    moved = static_cast<std::size_t>(result);
    return Io::done;
  }
  if (result == 0) return Io::closed;
  if (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) return would_block;
  return Io::failed;
}

class PlainStream final : public Stream {
 public:
  explicit PlainStream(int fd) : fd_(fd) {}
  Io read(char* data, std::size_t size, std::size_t& moved) override {
    return socket_result(::recv(fd_, data, size, MSG_DONTWAIT), moved, Io::want_read);
  }
  Io write(const char* data, std::size_t size, std::size_t& moved) override {
    const ssize_t sent = ::send(fd_, data, size, MSG_NOSIGNAL | MSG_DONTWAIT);
    return sent == 0 ? Io::want_write : socket_result(sent, moved, Io::want_write);
  }
  Io handshake() override { return Io::done; }
  void finish() override {}

 private:
  int fd_;
};

class TlsStream final : public Stream {
 public:
  explicit TlsStream(SSL* ssl) : ssl_(ssl) {}
  ~TlsStream() override { SSL_free(ssl_); }
  TlsStream(const TlsStream&) = delete;
  TlsStream& operator=(const TlsStream&) = delete;

  Io read(char* data, std::size_t size, std::size_t& moved) override {
    const int got = SSL_read(ssl_, data, static_cast<int>(size > INT_MAX ? INT_MAX : size));
    return result(got, moved);
  }
  Io write(const char* data, std::size_t size, std::size_t& moved) override {
    const int sent = SSL_write(ssl_, data, static_cast<int>(size > INT_MAX ? INT_MAX : size));
    return result(sent, moved);
  }
  Io handshake() override {
    std::size_t unused = 0;
    return result(SSL_accept(ssl_), unused);
  }
  void finish() override {
    if (!failed_) SSL_shutdown(ssl_);  // sends close_notify; the peer's is not waited for
  }

 private:
  Io result(int value, std::size_t& moved) {
    if (value > 0) {
      moved = static_cast<std::size_t>(value);
      return Io::done;
    }
    const int error = SSL_get_error(ssl_, value);
    ERR_clear_error();  // the thread's error queue would otherwise leak into the next call
    switch (error) {
      case SSL_ERROR_WANT_READ: return Io::want_read;
      case SSL_ERROR_WANT_WRITE: return Io::want_write;
      case SSL_ERROR_ZERO_RETURN: return Io::closed;
      default: failed_ = true; return Io::failed;  // SSL_shutdown after a fatal error is not allowed
    }
  }
  SSL* ssl_;
  bool failed_ = false;
};

}  // namespace

SigpipeBlock::SigpipeBlock() {
  sigset_t pipe{};
  sigset_t before{};
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  pthread_sigmask(SIG_BLOCK, &pipe, &before);
  was_blocked_ = sigismember(&before, SIGPIPE) == 1;
}

SigpipeBlock::~SigpipeBlock() {
  if (was_blocked_) return;  // someone else's block: theirs to consume
  sigset_t pipe{};
  sigemptyset(&pipe);
  sigaddset(&pipe, SIGPIPE);
  const timespec now{0, 0};
  while (sigtimedwait(&pipe, nullptr, &now) == SIGPIPE) {
  }
  pthread_sigmask(SIG_UNBLOCK, &pipe, nullptr);
}

std::unique_ptr<Stream> plain_stream(int fd) { return std::make_unique<PlainStream>(fd); }

std::unique_ptr<Stream> tls_stream(int fd, ssl_ctx_st* context) {
  // SSL_read and SSL_write must not block: the connection's loop polls and owns the timeouts.
  if (const int flags = ::fcntl(fd, F_GETFL); flags < 0 || ::fcntl(fd, F_SETFL, flags | O_NONBLOCK) != 0)
    return nullptr;
  SSL* ssl = SSL_new(context);
  if (ssl == nullptr) return nullptr;
  if (SSL_set_fd(ssl, fd) != 1) {
    SSL_free(ssl);
    return nullptr;
  }
  SSL_set_accept_state(ssl);
  return std::make_unique<TlsStream>(ssl);
}

}  // namespace rr::http_server::detail
