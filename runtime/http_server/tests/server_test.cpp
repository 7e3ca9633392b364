// The manager's HTTP server over real sockets on 127.0.0.1, driven byte by byte: pipelining,
// HEAD, keep-alive and Connection: close, malformed and oversized requests, timeouts, the
// connection limit and stop().
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>

#include "rr/http_server/server.hpp"

using namespace std::chrono_literals;
using rr::http_server::Request;
using rr::http_server::Response;
using rr::http_server::Server;
using rr::http_server::ServerOptions;
using rr::http_server::Target;

namespace {

// A handler that says what it was asked: "<method> <path> [<query keys>]".
Response echo(const Request& request, const Target& target) {
  if (target.path == "/throw") throw std::runtime_error("handler failed");
  Response response;
  if (target.path == "/missing") response.status = 404;
  response.body = request.method + " " + target.path;
  for (const auto& [key, value] : target.query) response.body += " " + key + "=" + value;
  return response;
}

// A client socket that sends raw bytes and reads what comes back.
class RawClient {
 public:
  explicit RawClient(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in address{};
    address.sin_family = AF_INET;
    address.sin_port = htons(static_cast<std::uint16_t>(port));
    address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    connected_ = ::connect(fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0;
  }
  ~RawClient() { ::close(fd_); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return connected_; }
  void send(std::string_view bytes) const {
    REQUIRE(::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL) == static_cast<ssize_t>(bytes.size()));
  }

  // What arrives until the server closes the connection or nothing more comes for `quiet`.
  std::string read(std::chrono::milliseconds quiet = 2000ms) {
    std::string out;
    char chunk[4096];
    pollfd fd{fd_, POLLIN, 0};
    while (::poll(&fd, 1, static_cast<int>(quiet.count())) > 0) {
      const ssize_t got = ::recv(fd_, chunk, sizeof chunk, 0);
      if (got <= 0) {
        closed_ = true;
        break;
      }
      out.append(chunk, static_cast<std::size_t>(got));
    }
    return out;
  }
  bool closed() const { return closed_; }

 private:
  int fd_;
  bool connected_ = false;
  bool closed_ = false;
};

std::size_t count(std::string_view text, std::string_view what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string_view::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

constexpr std::string_view get_metrics = "GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n";

}  // namespace

TEST_CASE("GET and HEAD: the same head, and no body for HEAD; pipelined requests answered in order") {
  Server server(echo);
  const int port = server.start("127.0.0.1", 0);
  REQUIRE(port > 0);
  RawClient client(port);
  REQUIRE(client.connected());
  client.send(std::string(get_metrics) + "HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n" +
              "GET /healthz?verbose&exclude=a+b HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
  const std::string replies = client.read();
  CHECK(client.closed());
  CHECK(count(replies, "HTTP/1.1 200 OK\r\n") == 3);
  const std::size_t first = replies.find("\r\n\r\nGET /metrics");
  const std::size_t second = replies.find("HTTP/1.1", first);
  const std::size_t third = replies.find("\r\n\r\nGET /healthz verbose= exclude=a b");
  REQUIRE(first != std::string::npos);
  REQUIRE(third != std::string::npos);
  CHECK(first < second);
  CHECK(second < third);
  // The HEAD answer: Content-Length of the GET's body, no body, then at once the third answer.
  const std::string head = replies.substr(second, replies.find("HTTP/1.1", second + 1) - second);
  CHECK(head.find("Content-Length: 13\r\n") != std::string::npos);  // "HEAD /metrics"
  CHECK(head.ends_with("\r\n\r\n"));
  CHECK(replies.ends_with("Connection: close\r\n\r\nGET /healthz verbose= exclude=a b"));
}

TEST_CASE("a request that arrives a byte at a time is answered, and the connection stays open") {
  Server server(echo);
  RawClient client(server.start("127.0.0.1", 0));
  for (const char c : get_metrics) client.send(std::string_view(&c, 1));
  const std::string reply = client.read(300ms);
  CHECK(reply.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(reply.ends_with("\r\n\r\nGET /metrics"));
  CHECK_FALSE(client.closed());
  client.send(get_metrics);
  CHECK(client.read(300ms).ends_with("GET /metrics"));
}

TEST_CASE("malformed requests get 400 (or 414, 431, 505) and the connection closes") {
  Server server(echo);
  const int port = server.start("127.0.0.1", 0);
  const auto reply_to = [port](const std::string& bytes) {
    RawClient client(port);
    client.send(bytes);
    const std::string reply = client.read();
    CHECK(client.closed());
    return reply.substr(0, reply.find("\r\n"));
  };
  CHECK(reply_to("GARBAGE\r\n\r\n") == "HTTP/1.1 400 Bad Request");
  CHECK(reply_to("GET / HTTP/1.1\r\n\r\n") == "HTTP/1.1 400 Bad Request");  // no Host
  CHECK(reply_to("GET / HTTP/1.1\r\nHost: x\r\n folded\r\n\r\n") == "HTTP/1.1 400 Bad Request");
  CHECK(reply_to("GET *bad HTTP/1.1\r\nHost: x\r\n\r\n") == "HTTP/1.1 400 Bad Request");
  CHECK(reply_to("GET / HTTP/3.0\r\nHost: x\r\n\r\n") == "HTTP/1.1 505 HTTP Version Not Supported");
  CHECK(reply_to("GET /" + std::string(9000, 'a') + " HTTP/1.1\r\n") == "HTTP/1.1 414 URI Too Long");
  CHECK(reply_to("GET / HTTP/1.1\r\nHost: x\r\nBig: " + std::string(20000, 'b') + "\r\n\r\n") ==
        "HTTP/1.1 431 Request Header Fields Too Large");
  std::string many = "GET / HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 101; ++i) many += "F" + std::to_string(i) + ": v\r\n";
  CHECK(reply_to(many + "\r\n") == "HTTP/1.1 431 Request Header Fields Too Large");
  // The answers before a malformed request still go out.
  RawClient client(port);
  client.send(std::string(get_metrics) + "BAD\r\n\r\n");
  const std::string replies = client.read();
  CHECK(replies.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(replies.find("HTTP/1.1 400 Bad Request\r\n") != std::string::npos);
  CHECK(client.closed());
}

TEST_CASE("other methods get 405 with Allow; a request with a body is answered, then the connection closes") {
  Server server(echo);
  const int port = server.start("127.0.0.1", 0);
  RawClient client(port);
  client.send("DELETE /metrics HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string reply = client.read(300ms);
  CHECK(reply.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(reply.find("Allow: GET, HEAD\r\n") != std::string::npos);
  CHECK_FALSE(client.closed());  // no body: the connection goes on
  RawClient poster(port);
  poster.send("POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\n\r\nbody");
  const std::string posted = poster.read();
  CHECK(posted.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(posted.find("Connection: close\r\n") != std::string::npos);
  CHECK(poster.closed());
}

TEST_CASE("HTTP/1.0 closes unless asked to keep alive; a handler's exception is a 500") {
  Server server(echo);
  const int port = server.start("127.0.0.1", 0);
  RawClient old(port);
  old.send("GET /metrics HTTP/1.0\r\n\r\n");
  CHECK(old.read().find("Connection: close\r\n") != std::string::npos);
  CHECK(old.closed());
  RawClient kept(port);
  kept.send("GET /metrics HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  CHECK(kept.read(300ms).find("Connection: keep-alive\r\n") != std::string::npos);
  CHECK_FALSE(kept.closed());
  kept.send("GET /throw HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  CHECK(kept.read(300ms).starts_with("HTTP/1.1 500 Internal Server Error\r\n"));
  kept.send("GET /missing HTTP/1.0\r\nConnection: keep-alive\r\n\r\n");
  CHECK(kept.read(300ms).starts_with("HTTP/1.1 404 Not Found\r\n"));
}

TEST_CASE("limits per connection: idle time and requests") {
  ServerOptions options;
  options.connection.read_timeout = 200ms;
  options.connection.max_requests = 3;
  Server server(echo, options);
  const int port = server.start("127.0.0.1", 0);

  RawClient idle(port);
  idle.send("GET /metrics HTTP/1.1\r\n");  // half a head, then nothing
  const auto before = std::chrono::steady_clock::now();
  CHECK(idle.read(3000ms).empty());
  CHECK(idle.closed());
  CHECK(std::chrono::steady_clock::now() - before < 2s);

  RawClient busy(port);
  busy.send(std::string(get_metrics) + std::string(get_metrics) + std::string(get_metrics) + std::string(get_metrics));
  const std::string replies = busy.read();
  CHECK(count(replies, "HTTP/1.1 200 OK") == 3);  // the fourth is not read
  CHECK(count(replies, "Connection: close") == 1);
  CHECK(busy.closed());
}

TEST_CASE("over the connection limit a client gets 503 and is closed") {
  ServerOptions options;
  options.max_connections = 2;
  Server server(echo, options);
  const int port = server.start("127.0.0.1", 0);
  RawClient first(port);
  RawClient second(port);
  first.send(get_metrics);
  second.send(get_metrics);
  REQUIRE(first.read(300ms).starts_with("HTTP/1.1 200"));
  REQUIRE(second.read(300ms).starts_with("HTTP/1.1 200"));
  RawClient third(port);
  CHECK(third.read().starts_with("HTTP/1.1 503 Service Unavailable\r\n"));
  CHECK(third.closed());
}

TEST_CASE("stop() ends kept-alive connections at once and closes the port; a port in use cannot be bound") {
  auto server = std::make_unique<Server>(echo);
  const int port = server->start("127.0.0.1", 0);
  RawClient client(port);
  client.send(get_metrics);
  REQUIRE(client.read(300ms).ends_with("GET /metrics"));
  Server second(echo);
  CHECK_THROWS_WITH_AS(second.start("127.0.0.1", port), doctest::Contains("cannot bind"), std::runtime_error);
  CHECK_THROWS_AS(server->start("127.0.0.1", 0), std::logic_error);  // already started
  const auto before = std::chrono::steady_clock::now();
  server->stop();
  CHECK(std::chrono::steady_clock::now() - before < 1s);
  client.read(1000ms);
  CHECK(client.closed());
  CHECK_FALSE(RawClient(port).connected());
  server->stop();  // idempotent
}

TEST_CASE("a server that takes bodies reads them, keeps the connection, and refuses too large or chunked ones") {
  ServerOptions options;
  options.connection.methods = {"POST"};
  options.connection.max_body = 16;
  Server server(
      [](const Request& request, const Target& target) {
        Response response;
        response.body = target.path + ":" + request.body + ":" + std::string(request.field("content-type"));
        return response;
      },
      options);
  const int port = server.start("127.0.0.1", 0);
  RawClient client(port);
  client.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 7\r\n\r\n{\"a\":1}"
              "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n[]");
  const std::string replies = client.read(300ms);
  CHECK(count(replies, "HTTP/1.1 200 OK\r\n") == 2);
  CHECK(replies.find("\r\n\r\n/a:{\"a\":1}:application/json") != std::string::npos);
  CHECK(replies.ends_with("\r\n\r\n/b:[]:"));
  CHECK_FALSE(client.closed());
  client.send("GET /a HTTP/1.1\r\nHost: x\r\n\r\n");
  const std::string get = client.read(300ms);
  CHECK(get.starts_with("HTTP/1.1 405 Method Not Allowed\r\n"));
  CHECK(get.find("Allow: POST\r\n") != std::string::npos);

  RawClient large(port);
  large.send("POST /a HTTP/1.1\r\nHost: x\r\nContent-Length: 17\r\n\r\n");
  const std::string refused = large.read();
  CHECK(refused.starts_with("HTTP/1.1 413 Request Entity Too Large\r\n"));
  CHECK(refused.ends_with("413 Request Entity Too Large: request entity is too large; limit is 16 bytes\n"));
  CHECK(large.closed());
  RawClient chunked(port);
  chunked.send("POST /a HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n2\r\n[]\r\n0\r\n\r\n");
  CHECK(chunked.read().starts_with("HTTP/1.1 411 Length Required\r\n"));
  CHECK(chunked.closed());
}
