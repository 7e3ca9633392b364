#include <doctest/doctest.h>

#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <openssl/pem.h>

#include "rr/apiserver/dev_certificates.hpp"
#include "test_server.hpp"

using namespace rr;
using namespace rr::apiserver_test;

namespace {

struct Pem {
  X509* cert = nullptr;
  EVP_PKEY* key = nullptr;
  Pem(const std::string& cert_pem, const std::string& key_pem) {
    BIO* c = BIO_new_mem_buf(cert_pem.data(), static_cast<int>(cert_pem.size()));
    cert = PEM_read_bio_X509(c, nullptr, nullptr, nullptr);
    BIO_free(c);
    BIO* k = BIO_new_mem_buf(key_pem.data(), static_cast<int>(key_pem.size()));
    key = PEM_read_bio_PrivateKey(k, nullptr, nullptr, nullptr);
    BIO_free(k);
  }
  ~Pem() {
    X509_free(cert);
    EVP_PKEY_free(key);
  }
};

std::string temp_path(const std::string& name) {
  return (std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()))).string();
}

}  // namespace

TEST_CASE("TLS with the development CA: a verified client certificate authenticates, none gets 401") {
  const DevCertificates certs = make_dev_certificates();
  ApiServerOptions options;
  options.tls = tls_options(certs);
  TestServer t(options);
  CHECK(t.server->url().rfind("https://127.0.0.1:", 0) == 0);
  const std::string ca_file = temp_path("rr-apiserver-ca.pem");
  std::ofstream(ca_file) << certs.ca_pem;

  Pem client(certs.client_cert_pem, certs.client_key_pem);
  httplib::SSLClient with_cert("127.0.0.1", t.server->port(), client.cert, client.key);
  with_cert.set_ca_cert_path(ca_file.c_str());
  with_cert.enable_server_certificate_verification(true);
  auto ok = with_cert.Get("/api/v1/namespaces");
  REQUIRE(ok);
  CHECK(ok->status == 200);

  httplib::SSLClient anonymous("127.0.0.1", t.server->port());
  anonymous.set_ca_cert_path(ca_file.c_str());
  anonymous.enable_server_certificate_verification(true);
  auto refused = anonymous.Get("/api/v1/namespaces");
  REQUIRE(refused);
  CHECK(refused->status == 401);
  CHECK(body_of(refused)["reason"] == "Unauthorized");
  CHECK(anonymous.Get("/healthz")->status == 200);

  // A certificate from another CA does not get through the handshake.
  const DevCertificates other = make_dev_certificates();
  Pem stranger(other.client_cert_pem, other.client_key_pem);
  httplib::SSLClient foreign("127.0.0.1", t.server->port(), stranger.cert, stranger.key);
  foreign.set_ca_cert_path(ca_file.c_str());
  auto foreign_result = foreign.Get("/api/v1/namespaces");
  CHECK((!foreign_result || foreign_result->status == 401));
  std::filesystem::remove(ca_file);
}

TEST_CASE("bearer tokens: an accepted token authenticates, others get 401") {
  ApiServerOptions options;
  options.bearer_tokens = {"secret-token"};
  TestServer t(options);
  auto c = t.client();
  CHECK(c->Get("/api/v1/namespaces")->status == 401);
  CHECK(c->Get("/api/v1/namespaces", {{"Authorization", "Bearer wrong"}})->status == 401);
  CHECK(c->Get("/api/v1/namespaces", {{"Authorization", "Bearer secret-token"}})->status == 200);
  CHECK(c->Get("/version")->status == 200);
  CHECK(t.server->kubeconfig_yaml().find("token: secret-token") != std::string::npos);
}

TEST_CASE("only loopback addresses are accepted") {
  auto cluster = std::make_shared<Cluster>();
  ApiServerOptions options;
  options.bind_address = "0.0.0.0";
  CHECK_THROWS_AS(ApiServer(cluster, options), std::invalid_argument);
  options.bind_address = "localhost";
  CHECK_NOTHROW(ApiServer(cluster, options));
}

TEST_CASE("kubeconfigs carry the server, the CA and the credentials: written with mode 0600") {
  const DevCertificates certs = make_dev_certificates("alice");
  ApiServerOptions options;
  options.tls = tls_options(certs);
  options.kubeconfig_user = kubeconfig_user(certs, "alice");
  TestServer t(options);
  const std::string text = t.server->kubeconfig_yaml();
  CHECK(text.find("server: " + t.server->url()) != std::string::npos);
  CHECK(text.find("certificate-authority-data: " + Bytes::encode(certs.ca_pem).str()) != std::string::npos);
  CHECK(text.find("client-certificate-data: ") != std::string::npos);
  CHECK(text.find("current-context: rrgen-local") != std::string::npos);
  const std::string path = temp_path("rr-apiserver-kubeconfig");
  t.server->write_kubeconfig(path);
  struct stat st {};
  REQUIRE(::stat(path.c_str(), &st) == 0);
  CHECK((st.st_mode & 0777) == 0600);
  std::filesystem::remove(path);
}
