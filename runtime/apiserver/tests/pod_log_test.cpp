// GET pods/<name>/log over a log source: the container chosen and checked as the API server does,
// the query's options passed on and validated, an empty log for a pod no node runs.
#include <doctest/doctest.h>

#include "rr/node/pod_logs.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

// Runs pods named "run-*": their log is the options it was asked with.
class FakeLogs : public node::PodLogSource {
 public:
  std::unique_ptr<node::PodLogStream> open(const Json& pod, const node::PodLogOptions& o) override {
    const std::string name = pod["metadata"]["name"];
    if (name.rfind("run-", 0) != 0) return nullptr;
    if (o.previous)
      throw std::invalid_argument("previous terminated container \"" + o.container + "\" in pod \"" + name +
                                  "\" not found");
    struct Text : node::PodLogStream {
      std::string text;
      bool next(std::string& out, std::chrono::milliseconds) override {
        out += text;
        return false;
      }
    };
    auto stream = std::make_unique<Text>();
    stream->text = "container=" + o.container + " tail=" + std::to_string(o.tail_lines.value_or(-1)) +
                   " since=" + std::to_string(o.since_seconds.value_or(-1)) +
                   " timestamps=" + (o.timestamps ? "1" : "0") + "\n";
    return stream;
  }
};

Json log_pod(const std::string& name, std::initializer_list<const char*> containers) {
  Json list = Json::array();
  for (const char* c : containers) list.push_back({{"name", c}, {"image", "app:v1"}});
  return {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", name}}}, {"spec", {{"containers", list}}}};
}

const std::string kLogPods = "/api/v1/namespaces/default/pods";

}  // namespace

TEST_CASE("pods/log: the container, the options, errors, and an empty log for a pod no node runs") {
  TestServer t;
  t.server->set_pod_log_source(std::make_shared<FakeLogs>());
  auto c = t.client();
  REQUIRE(c->Post(kLogPods, log_pod("run-one", {"main"}).dump(), "application/json")->status == 201);
  REQUIRE(c->Post(kLogPods, log_pod("run-two", {"a", "b"}).dump(), "application/json")->status == 201);
  REQUIRE(c->Post(kLogPods, log_pod("simulated", {"main"}).dump(), "application/json")->status == 201);

  auto res = c->Get(kLogPods + "/run-one/log?tailLines=2&sinceSeconds=5&timestamps=true");
  REQUIRE(res);
  CHECK(res->status == 200);
  CHECK(res->get_header_value("Content-Type").rfind("text/plain", 0) == 0);
  CHECK(res->body == "container=main tail=2 since=5 timestamps=1\n");

  res = c->Get(kLogPods + "/run-two/log");
  CHECK(res->status == 400);
  CHECK(body_of(res)["message"] == "a container name must be specified for pod run-two, choose one of: [a b]");
  CHECK(c->Get(kLogPods + "/run-two/log?container=b")->body == "container=b tail=-1 since=-1 timestamps=0\n");
  res = c->Get(kLogPods + "/run-two/log?container=c");
  CHECK(res->status == 400);
  CHECK(body_of(res)["message"] == "container c is not valid for pod run-two");

  res = c->Get(kLogPods + "/run-one/log?previous=true");
  CHECK(res->status == 400);
  CHECK(body_of(res)["message"] == "previous terminated container \"main\" in pod \"run-one\" not found");

  res = c->Get(kLogPods + "/run-one/log?tailLines=-1");
  CHECK(res->status == 422);
  CHECK(body_of(res)["details"]["causes"][0]["field"] == "tailLines");
  CHECK(body_of(res)["details"]["causes"][0]["message"] == "Invalid value: -1: must be greater than or equal to 0");
  CHECK(body_of(res)["details"]["kind"] == "PodLogOptions");
  CHECK(c->Get(kLogPods + "/run-one/log?sinceSeconds=0")->status == 422);
  CHECK(c->Get(kLogPods + "/run-one/log?follow=maybe")->status == 400);

  res = c->Get(kLogPods + "/simulated/log");
  CHECK(res->status == 200);
  CHECK(res->body.empty());
  CHECK(c->Get(kLogPods + "/absent/log")->status == 404);
  CHECK(c->Post(kLogPods + "/run-one/log", "{}", "application/json")->status == 405);
}
