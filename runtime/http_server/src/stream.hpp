// The bytes of one accepted connection, plain or TLS: non-blocking reads and writes that say what
// they wait for, so the connection's poll() loop is the same over both.
#pragma once
#include <cstddef>
#include <memory>

struct ssl_ctx_st;

namespace rr::http_server::detail {

enum class Io { done, want_read, want_write, closed, failed };

class Stream {
 public:
  virtual ~Stream() = default;
  // `moved`: the bytes read or written when done (more than 0).
  virtual Io read(char* data, std::size_t size, std::size_t& moved) = 0;
  virtual Io write(const char* data, std::size_t size, std::size_t& moved) = 0;
  // The TLS handshake, one step; plain streams are done at once.
  virtual Io handshake() = 0;
  // Says the answers are complete (TLS close_notify), before the socket's write side is shut.
  virtual void finish() = 0;
};

// OpenSSL writes to the socket with write(), which raises SIGPIPE when the peer has gone (the
// process would die): while one lives, this thread blocks SIGPIPE, and a SIGPIPE raised meanwhile
// is consumed when it ends.
class SigpipeBlock {
 public:
  SigpipeBlock();
  ~SigpipeBlock();
  SigpipeBlock(const SigpipeBlock&) = delete;
  SigpipeBlock& operator=(const SigpipeBlock&) = delete;

 private:
  bool was_blocked_ = false;
};

std::unique_ptr<Stream> plain_stream(int fd);
// nullptr when OpenSSL cannot make a session (out of memory).
std::unique_ptr<Stream> tls_stream(int fd, ssl_ctx_st* context);

}  // namespace rr::http_server::detail
