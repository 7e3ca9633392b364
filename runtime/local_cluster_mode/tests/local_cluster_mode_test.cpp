// rr::local_cluster_mode(): the cluster it starts answers over HTTP, its kubeconfig is written once
// it does, the operator's kinds are registered, and destroying it stops the server.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
#include <httplib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>

#include "rr/local_cluster_mode/local_cluster_mode.hpp"

namespace {

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

int status_of_version(const std::string& url) {
  httplib::Client client(url);
  client.set_connection_timeout(2);
  const auto result = client.Get("/version");
  return result ? result->status : 0;
}

}  // namespace

TEST_CASE("the local cluster answers, with its kubeconfig written, until it is destroyed") {
  const auto dir = std::filesystem::temp_directory_path() / ("rr-local-cluster-mode-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kubeconfig = dir / "kubeconfig";
  int registered = 0;
  const rr::LocalClusterMode mode = rr::local_cluster_mode([&registered](rr::Cluster&) { ++registered; });
  auto cluster = mode(kubeconfig.string());
  REQUIRE(cluster);
  const std::string url = cluster->url();
  CHECK(url.starts_with("http://127.0.0.1:"));
  CHECK(registered == 1);
  CHECK(read_file(kubeconfig).find("server: " + url) != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "kubeconfig.partial"));
  CHECK(status_of_version(url) == 200);
  cluster.reset();
  CHECK(status_of_version(url) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a kubeconfig that cannot be written fails the start") {
  const rr::LocalClusterMode mode = rr::local_cluster_mode();
  CHECK_THROWS_AS(mode("/nonexistent-dir/for/rr/kubeconfig"), std::runtime_error);
}
