// The webhook server over HTTPS on 127.0.0.1, called as the API server calls it.
#include <doctest/doctest.h>

#include <atomic>
#include <chrono>
#include <cstdlib>
#include <memory>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "rr/webhook/server.hpp"
#include "webhook_test_support.hpp"

using namespace std::chrono_literals;
using rr::Json;
using namespace rr::webhook;

namespace {

ServerOptions options_for(const test::ServingCerts& certs) {
  ServerOptions options;
  options.host = "127.0.0.1";
  options.port = 0;
  options.cert_dir = certs.dir.string();
  return options;
}

std::string review(Json request) {
  return Json{{"apiVersion", "admission.k8s.io/v1"}, {"kind", "AdmissionReview"}, {"request", std::move(request)}}
      .dump();
}

const Json create_request = {{"uid", "req-1"},
                             {"kind", {{"group", ""}, {"version", "v1"}, {"kind", "ConfigMap"}}},
                             {"resource", {{"group", ""}, {"version", "v1"}, {"resource", "configmaps"}}},
                             {"operation", "CREATE"},
                             {"name", "cm"},
                             {"namespace", "default"},
                             {"object", {{"apiVersion", "v1"}, {"kind", "ConfigMap"}}}};

// Denies names starting with "bad", warns otherwise; throws for "boom".
AdmissionResponse validate(const AdmissionRequest& request) {
  if (request.name == "boom") throw std::runtime_error("the handler broke");
  AdmissionResponse response;
  response.uid = "ignored: the server sets it";
  if (request.name.starts_with("bad")) {
    response.allowed = false;
    rr::Status& status = response.status.emplace();
    status.code = 403;
    status.reason = "Forbidden";
    status.message = "name " + request.name + " is not allowed";
  } else {
    response.warnings.push_back("checked " + request.namespace_ + "/" + request.name);
  }
  return response;
}

Json response_of(const test::HttpsReply& reply) {
  CHECK(reply.status == 200);
  CHECK(reply.content_type == "application/json");
  return Json::parse(reply.body)["response"];
}

}  // namespace

TEST_CASE("an admission path answers AdmissionReviews over HTTPS on one kept-alive connection") {
  const test::ServingCerts certs;
  Server server(options_for(certs));
  server.handle_admission("/validate", validate);
  const int port = server.start();
  test::HttpsClient client(certs.pair.ca_pem);

  const test::HttpsReply allowed = client.post(port, "/validate", review(create_request));
  CHECK(allowed.new_connections == 1);
  CHECK(response_of(allowed) == Json::parse(R"({"uid":"req-1","allowed":true,"warnings":["checked default/cm"]})"));

  Json bad = create_request;
  bad["name"] = "bad-cm";
  const test::HttpsReply denied = client.post(port, "/validate", review(bad));
  CHECK(denied.new_connections == 0);  // the connection was kept
  CHECK(response_of(denied) == Json::parse(R"({"uid":"req-1","allowed":false,
    "status":{"metadata":{},"code":403,"reason":"Forbidden","message":"name bad-cm is not allowed"}})"));
}

TEST_CASE("clients in parallel, each on its own kept connection, each get their own answers") {
  const test::ServingCerts certs;
  Server server(options_for(certs));
  server.handle_admission("/validate", validate);
  const int port = server.start();
  std::atomic<int> right{0};
  // Made here: libcurl's first handle initialises it, which is not for several threads at once.
  std::vector<std::unique_ptr<test::HttpsClient>> https;
  for (int c = 0; c < 4; ++c) https.push_back(std::make_unique<test::HttpsClient>(certs.pair.ca_pem));
  std::vector<std::thread> clients;
  for (int c = 0; c < 4; ++c) {
    clients.emplace_back([&, c] {
      test::HttpsClient& client = *https[static_cast<std::size_t>(c)];
      for (int i = 0; i < 25; ++i) {
        Json request = create_request;
        request["uid"] = "c" + std::to_string(c) + "-" + std::to_string(i);
        request["name"] = "cm" + std::to_string(i);
        const Json response = Json::parse(client.post(port, "/validate", review(request)).body)["response"];
        if (response["uid"] == request["uid"] && response["warnings"][0] == "checked default/cm" + std::to_string(i)) {
          ++right;
        }
      }
    });
  }
  for (std::thread& client : clients) client.join();
  CHECK(right == 100);
}

TEST_CASE("bad admission requests get an AdmissionReview with code 400; a throwing handler one with 500") {
  const test::ServingCerts certs;
  Server server(options_for(certs));
  server.handle_admission("/validate", validate);
  const int port = server.start();
  test::HttpsClient client(certs.pair.ca_pem);
  const auto status_of = [](const test::HttpsReply& reply) { return response_of(reply)["status"]; };

  CHECK(status_of(client.post(port, "/validate", review(create_request), "text/plain")) ==
        Json::parse(R"({"metadata":{},"code":400,"message":"contentType=text/plain, expected application/json"})"));
  CHECK(status_of(client.post(port, "/validate", "")) ==
        Json::parse(R"({"metadata":{},"code":400,"message":"request body is empty"})"));
  CHECK(
      status_of(client.post(port, "/validate", R"({"apiVersion":"v1","kind":"Pod"})")) ==
      Json::parse(
          R"({"metadata":{},"code":400,"message":"AdmissionReview: expected apiVersion \"admission.k8s.io/v1\" and kind \"AdmissionReview\", got apiVersion \"v1\" and kind \"Pod\""})"));
  Json boom = create_request;
  boom["name"] = "boom";
  const Json failed = response_of(client.post(port, "/validate", review(boom)));
  CHECK(failed == Json::parse(R"({"uid":"req-1","allowed":false,
    "status":{"metadata":{},"code":500,"message":"the handler broke"}})"));
  // application/json with parameters is still JSON.
  CHECK(response_of(client.post(port, "/validate", review(create_request),
                                "application/json; charset=utf-8"))["allowed"] == true);
}

TEST_CASE("unknown paths are 404, other methods 405, bodies over the limit 413") {
  const test::ServingCerts certs;
  ServerOptions options = options_for(certs);
  options.max_body = 64;
  Server server(options);
  server.handle_admission("/validate", validate);
  const int port = server.start();
  test::HttpsClient client(certs.pair.ca_pem);
  CHECK(client.post(port, "/mutate", "{}").status == 404);
  CHECK(client.post(port, "/validate", "", "application/json", "GET").status == 405);
  const test::HttpsReply large = client.post(port, "/validate", std::string(65, ' '));
  CHECK(large.status == 413);
  CHECK(large.body == "413 Request Entity Too Large: request entity is too large; limit is 64 bytes\n");
}

TEST_CASE("a conversion path converts, answers a bad review with HTTP 400 and a throwing handler with Failure") {
  const test::ServingCerts certs;
  Server server(options_for(certs));
  server.handle_conversion("/convert", [](const ConversionRequest& request) {
    if (request.desired_api_version == "example.com/v9") throw std::runtime_error("no such version");
    ConversionResponse response;
    for (Json object : request.objects) {
      object["apiVersion"] = request.desired_api_version;
      response.converted_objects.push_back(std::move(object));
    }
    return response;
  });
  const int port = server.start();
  test::HttpsClient client(certs.pair.ca_pem);
  const auto conversion = [](const char* version) {
    return encode_conversion_review_request({"c-1", version, {Json{{"apiVersion", "example.com/v1"}, {"spec", 1}}}});
  };
  CHECK(response_of(client.post(port, "/convert", conversion("example.com/v2"))) == Json::parse(R"({"uid":"c-1",
    "convertedObjects":[{"apiVersion":"example.com/v2","spec":1}],"result":{"metadata":{},"status":"Success"}})"));
  CHECK(response_of(client.post(port, "/convert", conversion("example.com/v9"))) == Json::parse(R"({"uid":"c-1",
    "convertedObjects":[],"result":{"metadata":{},"status":"Failure","message":"no such version"}})"));
  const test::HttpsReply bad = client.post(port, "/convert", "{}");
  CHECK(bad.status == 400);
  CHECK(
      bad.body ==
      R"(ConversionReview: expected apiVersion "apiextensions.k8s.io/v1" and kind "ConversionReview", got apiVersion "" and kind "")");
}

TEST_CASE("check_started: not started, reachable over TLS, then not reachable once stopped") {
  const test::ServingCerts certs;
  Server server(options_for(certs));
  server.handle_admission("/validate", validate);
  CHECK(server.check_started() == "webhook server has not been started yet");
  const int port = server.start();
  CHECK(server.port() == port);
  CHECK(server.check_started() == std::nullopt);
  server.stop();
  CHECK(server.check_started() == "webhook server has not been started yet");
}

TEST_CASE("start() fails on missing certificates and registration mistakes are refused") {
  ServerOptions options;
  options.port = 0;
  options.cert_dir = "/nonexistent-rr-webhook-certs";
  Server server(options);
  server.handle_admission("/validate", validate);
  CHECK_THROWS_WITH_AS(server.start(),
                       doctest::Contains("tls: cannot load certificate /nonexistent-rr-webhook-certs/tls.crt"),
                       std::runtime_error);
  CHECK_THROWS_WITH_AS(server.handle_admission("/validate", validate),
                       R"(webhook path "/validate" is already registered)", std::invalid_argument);
  CHECK_THROWS_WITH_AS(server.handle_conversion("convert", {}), R"(webhook path "convert" does not start with '/')",
                       std::invalid_argument);
  CHECK(server.has_handlers());
  CHECK_FALSE(Server().has_handlers());
}
