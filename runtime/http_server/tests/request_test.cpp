// The manager's HTTP request parser: request heads and targets as bytes off the network, malformed,
// oversized, split anywhere or pipelined, and what an answer looks like.
#include <doctest/doctest.h>

#include <string>
#include <string_view>

#include "rr/http_server/connection.hpp"
#include "rr/http_server/request.hpp"

using rr::http_server::HeadStatus;
using rr::http_server::parse_request_head;
using rr::http_server::RequestLimits;
using rr::http_server::split_target;

namespace {

constexpr std::string_view scrape = "GET /metrics HTTP/1.1\r\nHost: 10.0.0.1:8080\r\nAccept:  text/plain \r\n\r\n";

int error_of(std::string_view bytes, const RequestLimits& limits = {}) {
  const auto head = parse_request_head(bytes, limits);
  return head.status == HeadStatus::error ? head.error_status : 0;
}

}  // namespace

TEST_CASE("a request head: method, target, version, fields lower-cased and trimmed") {
  const auto head = parse_request_head(scrape);
  REQUIRE(head.status == HeadStatus::complete);
  CHECK(head.consumed == scrape.size());
  CHECK(head.request.method == "GET");
  CHECK(head.request.target == "/metrics");
  CHECK(head.request.minor_version == 1);
  REQUIRE(head.request.fields.size() == 2);
  CHECK(head.request.fields[0] == std::pair<std::string, std::string>{"host", "10.0.0.1:8080"});
  CHECK(head.request.fields[1] == std::pair<std::string, std::string>{"accept", "text/plain"});
  CHECK(head.request.keep_alive);
  CHECK_FALSE(head.request.has_body);
}

TEST_CASE("every prefix of a head is incomplete, and a pipelined head is left for the next read") {
  for (std::size_t size = 0; size < scrape.size(); ++size) {
    CAPTURE(size);
    CHECK(parse_request_head(scrape.substr(0, size)).status == HeadStatus::incomplete);
  }
  const std::string two = std::string(scrape) + "HEAD /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
  const auto first = parse_request_head(two);
  REQUIRE(first.status == HeadStatus::complete);
  CHECK(first.consumed == scrape.size());
  const auto second = parse_request_head(std::string_view(two).substr(first.consumed));
  REQUIRE(second.status == HeadStatus::complete);
  CHECK(second.request.method == "HEAD");
  CHECK(second.request.target == "/healthz");
}

TEST_CASE("bare LF line ends and empty lines before the request line are accepted") {
  const auto head = parse_request_head("\r\n\nGET / HTTP/1.1\nHost: x\n\n");
  REQUIRE(head.status == HeadStatus::complete);
  CHECK(head.request.target == "/");
  CHECK(parse_request_head("\r").status == HeadStatus::incomplete);
  CHECK(error_of("\rGET / HTTP/1.1\r\n") == 400);
}

TEST_CASE("malformed request lines are 400, another HTTP major version 505") {
  for (const std::string_view line : {"GET /", "GET / ", "GET  / HTTP/1.1", " GET / HTTP/1.1", "G(T / HTTP/1.1",
                                      "GET / HTTP/1.1 extra", "GET / http/1.1", "GET / HTTP/1", "GET / HTTP/1.10",
                                      "GET /a b HTTP/1.1", "GET / HTTP/1.1\r", "GET /\x01 HTTP/1.1",
                                      "GET /\x80 HTTP/1.1"}) {
    CAPTURE(line);
    CHECK(error_of(std::string(line) + "\r\nHost: x\r\n\r\n") == 400);
  }
  using namespace std::string_literals;
  CHECK(error_of("GET \0 HTTP/1.1\r\nHost: x\r\n\r\n"s) == 400);
  CHECK(error_of("\0GET / HTTP/1.1\r\nHost: x\r\n\r\n"s) == 400);
  CHECK(error_of("GET / HTTP/2.0\r\nHost: x\r\n\r\n") == 505);
  CHECK(error_of("GET / HTTP/0.9\r\nHost: x\r\n\r\n") == 505);
  const auto head = parse_request_head("GET / HTTP/1.1\r\n\r\n");
  REQUIRE(head.status == HeadStatus::error);
  CHECK(head.error == "missing or repeated Host");
}

TEST_CASE("malformed header fields are 400") {
  for (const std::string_view field : {"NoColon", ": empty name", "Space : before colon", " folded: line",
                                       "\tfolded: line", "Bad\x01Name: x", "Name: bad\x01value", "Name: bad\x7fvalue",
                                       "Name: bare\rCR"}) {
    CAPTURE(field);
    CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\n" + std::string(field) + "\r\n\r\n") == 400);
  }
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nHost: y\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1x\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") == 400);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nTransfer-Encoding: chunked\r\n\r\n") == 400);
  // obs-text in a value is allowed (RFC 9110 §5.5), and HTTP/1.0 needs no Host.
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nX-Name: caf\xc3\xa9\r\n\r\n") == 0);
  CHECK(error_of("GET / HTTP/1.0\r\n\r\n") == 0);
}

TEST_CASE("limits: a long request line is 414, a large head or too many fields 431") {
  const RequestLimits limits{.max_request_line = 64, .max_head = 256, .max_fields = 4};
  const std::string long_target = "/" + std::string(80, 'a');
  CHECK(error_of("GET " + long_target + " HTTP/1.1\r\nHost: x\r\n\r\n", limits) == 414);
  CHECK(error_of("GET " + long_target, limits) == 414);  // said before the line ends
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nBig: " + std::string(300, 'v') + "\r\n\r\n", limits) == 431);
  CHECK(error_of("GET / HTTP/1.1\r\nHost: x\r\nBig: " + std::string(300, 'v'), limits) == 431);
  CHECK(error_of(std::string(300, '\n'), limits) == 431);
  std::string fields = "GET / HTTP/1.1\r\nHost: x\r\n";
  for (int i = 0; i < 3; ++i) fields += "F" + std::to_string(i) + ": v\r\n";
  CHECK(error_of(fields + "\r\n", limits) == 0);
  CHECK(error_of(fields + "F9: v\r\n\r\n", limits) == 431);
  // Exactly at the limits is fine.
  const std::string at_line = "GET /" + std::string(64 - 14, 'a') + " HTTP/1.1";
  REQUIRE(at_line.size() == 64);
  CHECK(error_of(at_line + "\r\nHost: x\r\n\r\n", limits) == 0);
}

TEST_CASE("Connection and bodies decide whether the connection goes on") {
  const auto keep = [](std::string_view head_text) {
    const auto head = parse_request_head(head_text);
    REQUIRE(head.status == HeadStatus::complete);
    return head.request.keep_alive && !head.request.has_body;
  };
  CHECK(keep("GET / HTTP/1.1\r\nHost: x\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nConnection: keep-alive, CLOSE\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.0\r\n\r\n"));
  CHECK(keep("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n"));
  CHECK(keep("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\n\r\n"));
  CHECK_FALSE(keep("GET / HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"));
}

TEST_CASE("targets: decoded path, query parameters, absolute form; malformed ones rejected") {
  const auto target = split_target("/healthz/pi%6Eg?verbose&exclude=a+b&exclude=c%2Fd&x=%zz&&");
  REQUIRE(target);
  CHECK(target->path == "/healthz/ping");
  CHECK(target->has_param("verbose"));
  CHECK_FALSE(target->has_param("x"));  // malformed escape: the pair is dropped, as Go's Query() does
  CHECK(target->param_values("exclude") == std::vector<std::string>{"a b", "c/d"});
  CHECK(split_target("http://10.0.0.1:8080/metrics")->path == "/metrics");
  CHECK(split_target("HTTPS://host")->path == "/");
  CHECK(split_target("http://host?verbose")->has_param("verbose"));
  CHECK_FALSE(split_target("/bad%2"));
  CHECK_FALSE(split_target("/bad%g0"));
  CHECK_FALSE(split_target("*"));
  CHECK_FALSE(split_target("host:8080"));
  CHECK_FALSE(split_target(""));
}

TEST_CASE("an answer: Content-Length always, no body for HEAD, Connection when it is not the default") {
  rr::http_server::Response response;
  response.body = "ok";
  response.fields.emplace_back("X-Content-Type-Options", "nosniff");
  const std::string get = rr::http_server::format_response(response, false, true, 1);
  CHECK(get.starts_with("HTTP/1.1 200 OK\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: 2\r\nDate: "));
  CHECK(get.ends_with(" GMT\r\nX-Content-Type-Options: nosniff\r\n\r\nok"));
  const std::string head = rr::http_server::format_response(response, true, false, 1);
  CHECK(head.find("Content-Length: 2\r\n") != std::string::npos);
  CHECK(head.ends_with("Connection: close\r\n\r\n"));
  CHECK(rr::http_server::format_response(response, false, true, 0).find("Connection: keep-alive\r\n") !=
        std::string::npos);
}
