// rr::local_cluster_mode(): the cluster it starts answers over HTTPS (plain HTTP only when asked),
// its kubeconfig is written once it does, with the CA and a client certificate, the operator's
// kinds are registered, and destroying it stops the server.
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

// GET `path` without credentials; TLS is not verified here (the kubeconfig's CA is checked by
// reading it), only whether the server speaks it.
int status_of(const std::string& url, const std::string& path = "/version") {
  httplib::Client client(url);
  client.enable_server_certificate_verification(false);
  client.set_connection_timeout(2);
  const auto result = client.Get(path);
  return result ? result->status : 0;
}

}  // namespace

TEST_CASE("the local cluster answers, with its kubeconfig written, until it is destroyed") {
  const auto dir = std::filesystem::temp_directory_path() / ("rr-local-cluster-mode-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kubeconfig = dir / "kubeconfig";
  int registered = 0;
  const rr::LocalClusterMode mode = rr::local_cluster_mode([&registered](rr::Cluster&) { ++registered; });
  auto cluster = mode(rr::LocalClusterRequest{kubeconfig.string()});
  REQUIRE(cluster);
  const std::string url = cluster->url();
  CHECK(url.starts_with("https://127.0.0.1:"));
  CHECK(registered == 1);
  const std::string written = read_file(kubeconfig);
  CHECK(written.find("server: " + url) != std::string::npos);
  CHECK(written.find("certificate-authority-data: ") != std::string::npos);
  CHECK(written.find("client-certificate-data: ") != std::string::npos);
  CHECK(written.find("client-key-data: ") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(dir / "kubeconfig.partial"));
  CHECK(status_of(url) == 200);
  CHECK(status_of(url, "/api/v1/namespaces") == 401);  // anonymous requests are refused
  cluster.reset();
  CHECK(status_of(url) == 0);
  std::filesystem::remove_all(dir);
}

TEST_CASE("insecure_http: plain HTTP without authentication, only when asked") {
  const auto dir = std::filesystem::temp_directory_path() / ("rr-local-cluster-http-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  const auto kubeconfig = dir / "kubeconfig";
  auto cluster = rr::local_cluster_mode()(rr::LocalClusterRequest{kubeconfig.string(), true});
  REQUIRE(cluster);
  CHECK(cluster->url().starts_with("http://127.0.0.1:"));
  CHECK(read_file(kubeconfig).find("certificate-authority-data") == std::string::npos);
  CHECK(status_of(cluster->url(), "/api/v1/namespaces") == 200);
  cluster.reset();
  std::filesystem::remove_all(dir);
}

TEST_CASE("a kubeconfig that cannot be written fails the start") {
  const rr::LocalClusterMode mode = rr::local_cluster_mode();
  CHECK_THROWS_AS(mode(rr::LocalClusterRequest{"/nonexistent-dir/for/rr/kubeconfig"}), std::runtime_error);
}

TEST_CASE("images: the embedded cluster starts a node agent, which refuses a directory without layouts") {
  const auto dir = std::filesystem::temp_directory_path() / ("rr-local-cluster-images-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir / "images");
  const rr::LocalClusterMode mode = rr::local_cluster_mode({}, {.images = {dir / "images"}});
  CHECK_THROWS_WITH(mode(rr::LocalClusterRequest{(dir / "kubeconfig").string(), true}),
                    doctest::Contains("no oci-layout in it or its subdirectories"));
  std::filesystem::remove_all(dir);
}

TEST_CASE("cert_manager: the embedded cluster serves cert-manager.io/v1 only when asked") {
  const auto dir = std::filesystem::temp_directory_path() / ("rr-local-cluster-cm-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto with = rr::local_cluster_mode(
      {}, {.images = {}, .cert_manager = true})(rr::LocalClusterRequest{(dir / "kubeconfig").string(), true});
  CHECK(status_of(with->url(), "/apis/cert-manager.io/v1") == 200);
  CHECK(status_of(with->url(), "/api/v1/namespaces/cert-manager") == 200);  // the cluster resource namespace
  with.reset();
  auto without = rr::local_cluster_mode()(rr::LocalClusterRequest{(dir / "kubeconfig").string(), true});
  CHECK(status_of(without->url(), "/apis/cert-manager.io/v1") == 404);
  without.reset();
  std::filesystem::remove_all(dir);
}
