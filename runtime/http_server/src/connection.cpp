// One connection of the HTTP server (see connection.hpp).
#include "rr/http_server/connection.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <climits>
#include <cstdio>
#include <ctime>
#include <exception>
#include <memory>
#include <optional>
#include <string_view>

#include "stream.hpp"

namespace rr::http_server {
namespace {

using detail::Io;
using detail::Stream;
using Clock = std::chrono::steady_clock;

std::string_view reason_phrase(int status) {
  switch (status) {
    case 200: return "OK";
    case 400: return "Bad Request";
    case 404: return "Not Found";
    case 405: return "Method Not Allowed";
    case 411: return "Length Required";
    case 413: return "Request Entity Too Large";
    case 414: return "URI Too Long";
    case 431: return "Request Header Fields Too Large";
    case 500: return "Internal Server Error";
    case 503: return "Service Unavailable";
    case 505: return "HTTP Version Not Supported";
    default: return "Status";
  }
}

// RFC 9110 §5.6.7 IMF-fixdate, spelled without the C locale's help.
std::string http_date() {
  static constexpr std::array<const char*, 7> days = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> months = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                         "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  std::array<char, 40> text{};
  std::snprintf(text.data(), text.size(), "%s, %02d %s %04d %02d:%02d:%02d GMT", days.at(utc.tm_wday % 7),
                utc.tm_mday, months.at(utc.tm_mon % 12), utc.tm_year + 1900, utc.tm_hour, utc.tm_min, utc.tm_sec);
  return text.data();
}

// Go's http.Error shape: "<code> <reason>: <detail>".
Response error_response(int status, std::string_view detail) {
  Response response;
  response.status = status;
  response.body = std::to_string(status) + " " + std::string(reason_phrase(status));
  if (!detail.empty()) response.body += ": " + std::string(detail);
  response.body += "\n";
  response.fields.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

enum class Wait { ready, timeout, stopped, failed };

// Waits for `events` on `fd` until `deadline`; the server stopping (`wake_fd` readable) wins.
Wait wait_for(int fd, short events, int wake_fd, Clock::time_point deadline) {
  while (true) {
    const auto left = std::chrono::ceil<std::chrono::milliseconds>(deadline - Clock::now()).count();
    if (left <= 0) return Wait::timeout;
    std::array<pollfd, 2> fds{{{fd, events, 0}, {wake_fd, POLLIN, 0}}};
    const int ready = ::poll(fds.data(), fds.size(), static_cast<int>(std::min<long long>(left, INT_MAX)));
    if (ready < 0 && errno != EINTR) return Wait::failed;
    if (ready <= 0) continue;
    if (fds[1].revents != 0) return Wait::stopped;
    if (fds[0].revents != 0) return Wait::ready;  // errors and hang-ups too: the next call says which
  }
}

// Waits for what a stream asked for; anything else (closed, failed) ends the connection.
bool wait_for_stream(Io wanted, int fd, int wake_fd, Clock::time_point deadline) {
  if (wanted != Io::want_read && wanted != Io::want_write) return false;
  return wait_for(fd, wanted == Io::want_read ? POLLIN : POLLOUT, wake_fd, deadline) == Wait::ready;
}

bool write_all(Stream& stream, int fd, std::string_view data, int wake_fd, std::chrono::milliseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  while (!data.empty()) {
    std::size_t sent = 0;
    const Io io = stream.write(data.data(), data.size(), sent);
    if (io == Io::done) {
      data.remove_prefix(sent);
    } else if (!wait_for_stream(io, fd, wake_fd, deadline)) {
      return false;
    }
  }
  return true;
}

// Appends what arrives next to `buffer`; false when the client is done, or on error or timeout.
bool read_some(Stream& stream, int fd, std::string& buffer, int wake_fd, Clock::time_point deadline) {
  while (true) {
    std::array<char, 16 * 1024> chunk{};
    std::size_t got = 0;
    const Io io = stream.read(chunk.data(), chunk.size(), got);
    if (io == Io::done) {
      buffer.append(chunk.data(), got);
      return true;
    }
    if (!wait_for_stream(io, fd, wake_fd, deadline)) return false;
  }
}

// Closes after the answer: without reading what the client still sends first, the kernel would
// answer it with a reset, which can discard the answer before the client has read it.
void close_gracefully(Stream& stream, int fd, int wake_fd) {
  stream.finish();
  ::shutdown(fd, SHUT_WR);
  const auto deadline = Clock::now() + std::chrono::milliseconds(500);
  std::array<char, 4096> sink{};
  for (std::size_t drained = 0; drained < 64 * 1024;) {
    if (wait_for(fd, POLLIN, wake_fd, deadline) != Wait::ready) break;
    const ssize_t got = ::recv(fd, sink.data(), sink.size(), MSG_DONTWAIT);
    if (got == 0 || (got < 0 && errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) break;
    if (got > 0) drained += static_cast<std::size_t>(got);
  }
}

std::string joined(const std::vector<std::string>& words) {
  std::string out;
  for (const std::string& word : words) out += (out.empty() ? "" : ", ") + word;
  return out;
}

bool allowed(const Request& request, const ConnectionOptions& options) {
  return std::find(options.methods.begin(), options.methods.end(), request.method) != options.methods.end();
}

Response answer(const Request& request, const Target& target, const Handler& handler,
                const ConnectionOptions& options) {
  if (!allowed(request, options)) {
    Response response = error_response(405, "");
    response.fields.emplace_back("Allow", joined(options.methods));
    return response;
  }
  try {
    return handler(request, target);
  } catch (const std::exception&) {
    return error_response(500, "");
  }
}

// A request that cannot be answered (400, 414, 431, 505) ends the connection: what follows it
// cannot be trusted to start a request.
void refuse_request(Stream& stream, int fd, int wake_fd, int status, std::string_view why,
                    const ConnectionOptions& options) {
  const std::string bytes = format_response(error_response(status, why), false, false, 1);
  if (write_all(stream, fd, bytes, wake_fd, options.write_timeout)) close_gracefully(stream, fd, wake_fd);
}

struct Descriptor {
  int fd;
  ~Descriptor() { ::close(fd); }
};

// Whether the request's body is to be read, or why not (a status to refuse it with).
struct BodyPlan {
  bool read = false;
  int refuse_status = 0;
  std::string why;
};
BodyPlan plan_body(const Request& request, const ConnectionOptions& options) {
  if (!request.has_body || options.max_body == 0 || !allowed(request, options)) return {};
  if (request.chunked) return {false, 411, "a request body needs a Content-Length"};
  if (request.content_length > options.max_body) {
    return {false, 413, "request entity is too large; limit is " + std::to_string(options.max_body) + " bytes"};
  }
  return {true, 0, {}};
}

void serve(Stream& stream, int fd, int wake_fd, const Handler& handler, const ConnectionOptions& options) {
  const auto handshake_deadline = Clock::now() + options.read_timeout;
  for (Io io = stream.handshake(); io != Io::done; io = stream.handshake()) {
    if (!wait_for_stream(io, fd, wake_fd, handshake_deadline)) return;
  }
  std::string buffer;
  for (std::size_t served = 0;;) {
    HeadResult head = parse_request_head(buffer, options.limits);
    const auto deadline = Clock::now() + options.read_timeout;
    while (head.status == HeadStatus::incomplete) {
      if (!read_some(stream, fd, buffer, wake_fd, deadline)) return;
      head = parse_request_head(buffer, options.limits);
    }
    if (head.status == HeadStatus::error) {
      return refuse_request(stream, fd, wake_fd, head.error_status, head.error, options);
    }
    buffer.erase(0, head.consumed);
    Request& request = head.request;
    const std::optional<Target> target = split_target(request.target);
    if (!target) return refuse_request(stream, fd, wake_fd, 400, "malformed request target", options);
    const BodyPlan body = plan_body(request, options);
    if (body.refuse_status != 0) return refuse_request(stream, fd, wake_fd, body.refuse_status, body.why, options);
    if (body.read) {
      while (buffer.size() < request.content_length) {
        if (!read_some(stream, fd, buffer, wake_fd, deadline)) return;
      }
      request.body = buffer.substr(0, request.content_length);
      buffer.erase(0, request.content_length);
    }
    // A body not read ends the connection after the answer instead of reading the body's bytes
    // as the next request.
    ++served;
    const bool keep_alive = request.keep_alive && (!request.has_body || body.read) && served < options.max_requests;
    const Response response = answer(request, *target, handler, options);
    const std::string bytes = format_response(response, request.method == "HEAD", keep_alive, request.minor_version);
    if (!write_all(stream, fd, bytes, wake_fd, options.write_timeout)) return;
    if (!keep_alive) {
      close_gracefully(stream, fd, wake_fd);
      return;
    }
  }
}

}  // namespace

void serve_connection(int fd, int wake_fd, const Handler& handler, const ConnectionOptions& options, ssl_ctx_st* tls) {
  const detail::SigpipeBlock no_sigpipe;
  const Descriptor closed_at_end{fd};
  try {
    const std::unique_ptr<Stream> stream = tls != nullptr ? detail::tls_stream(fd, tls) : detail::plain_stream(fd);
    if (stream) serve(*stream, fd, wake_fd, handler, options);
  } catch (const std::exception&) {
    // Out of memory, most likely: this connection ends, the server goes on.
  }
}

std::string format_response(const Response& response, bool head_only, bool keep_alive, int minor_version) {
  std::string out = "HTTP/1.1 " + std::to_string(response.status) + " " + std::string(reason_phrase(response.status));
  out += "\r\nContent-Type: " + response.content_type;
  out += "\r\nContent-Length: " + std::to_string(response.body.size());
  out += "\r\nDate: " + http_date();
  for (const auto& [name, value] : response.fields) out += "\r\n" + name + ": " + value;
  if (!keep_alive) {
    out += "\r\nConnection: close";
  } else if (minor_version == 0) {
    out += "\r\nConnection: keep-alive";  // HTTP/1.0 closes unless told otherwise
  }
  out += "\r\n\r\n";
  if (!head_only) out += response.body;
  return out;
}

}  // namespace rr::http_server
