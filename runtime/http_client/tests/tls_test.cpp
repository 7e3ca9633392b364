// TLS: a test CA and certificates made with the openssl CLI in a temporary directory.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "plugin_dir.hpp"
#include "test_server.hpp"

namespace fs = std::filesystem;

namespace {

std::string read_file(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

// ca/ (signs server.crt for 127.0.0.1 and client.crt), other-ca/ (signs nothing we use), and
// named.crt for DNS:kube.test only.
struct Pki {
  fs::path dir;
  Pki() {
    std::string pattern = (fs::temp_directory_path() / "rr-http-tls-XXXXXX").string();
    dir = mkdtemp(pattern.data());
    const std::string d = dir.string();
    const std::string script =
        "set -e; cd '" + d + "'\n"
        "key() { openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out \"$1\" 2>/dev/null; }\n"
        "ca() { key $1.key; openssl req -x509 -new -key $1.key -out $1.crt -days 2 -subj \"/CN=$1\" 2>/dev/null; }\n"
        "leaf() { key $1.key; openssl req -new -key $1.key -out $1.csr -subj \"/CN=$2\" 2>/dev/null;\n"
        "  printf '%s\\n' \"$3\" > $1.ext;\n"
        "  openssl x509 -req -in $1.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out $1.crt -days 2 -extfile $1.ext 2>/dev/null; }\n"
        "ca ca; ca other-ca\n"
        "leaf server 127.0.0.1 'subjectAltName=IP:127.0.0.1'\n"
        "leaf named kube.test 'subjectAltName=DNS:kube.test'\n"
        "leaf client operator 'extendedKeyUsage=clientAuth'\n";
    const fs::path script_file = dir / "make.sh";
    std::ofstream(script_file) << script;
    REQUIRE(std::system(("sh '" + script_file.string() + "'").c_str()) == 0);
  }
  ~Pki() { fs::remove_all(dir); }
  std::string path(const char* name) const { return (dir / name).string(); }
  std::string pem(const char* name) const { return read_file(dir / name); }
};

const Pki& pki() {
  static const Pki instance;
  return instance;
}

void answer_ok(rr_test::TestServer& server) {
  server.http().Get("/version", [](const httplib::Request&, httplib::Response& res) {
    rr_test::reply_json(res, 200, R"({"major":"1"})");
  });
}

rr::Status failure_of(rr::HttpClient& client) {
  try {
    client.get_path("/version");
  } catch (const rr::ApiError& e) {
    return e.status();
  }
  FAIL("expected an ApiError");
  return {};
}

rr::HttpClientOptions no_retries() {
  rr::HttpClientOptions options = rr_test::quick_options();
  options.retry.max_retries = 0;
  return options;
}

}  // namespace

TEST_CASE("CA data and a client certificate: verified both ways") {
  rr_test::TestServer server(pki().path("server.crt"), pki().path("server.key"), pki().path("ca.crt"));
  answer_ok(server);
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.ca_data = pki().pem("ca.crt");
  config.client_cert_data = pki().pem("client.crt");
  config.client_key_data = pki().pem("client.key");
  {
    rr::HttpClient client(config, no_retries());
    CHECK(client.get_path("/version")["major"] == "1");
  }
  // The server requires a client certificate.
  config.client_cert_data.clear();
  config.client_key_data.clear();
  rr::HttpClient anonymous(config, no_retries());
  const rr::Status s = failure_of(anonymous);
  CHECK(s.code == 0);
  CHECK(s.message.find("GET \"" + server.url() + "/version\": ") == 0);
}

TEST_CASE("a server certificate from another CA is refused, insecure_skip_tls_verify accepts it") {
  rr_test::TestServer server(pki().path("server.crt"), pki().path("server.key"));
  answer_ok(server);
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.ca_data = pki().pem("other-ca.crt");
  {
    rr::HttpClient client(config, no_retries());
    const rr::Status s = failure_of(client);
    CHECK(s.code == 0);
    CHECK(s.reason == "ServiceUnavailable");
    CHECK(s.message.find("certificate") != std::string::npos);
  }
  {
    // No CA data: the system trust store, which does not know the test CA either.
    config.ca_data.clear();
    rr::HttpClient client(config, no_retries());
    CHECK(failure_of(client).code == 0);
  }
  config.insecure_skip_tls_verify = true;
  rr::HttpClient insecure(config, no_retries());
  CHECK(insecure.get_path("/version")["major"] == "1");
}

TEST_CASE("tls_server_name: verify a certificate issued for another name than the host") {
  rr_test::TestServer server(pki().path("named.crt"), pki().path("named.key"));
  answer_ok(server);
  server.start();
  rr::RestConfig config = rr_test::config_for(server);
  config.ca_data = pki().pem("ca.crt");
  {
    rr::HttpClient client(config, no_retries());
    CHECK(failure_of(client).code == 0);  // the certificate is not for 127.0.0.1
  }
  config.tls_server_name = "kube.test";
  rr::HttpClient named(config, no_retries());
  CHECK(named.get_path("/version")["major"] == "1");
  CHECK(server.seen().size() == 1);
}

// libcurl reuses a pooled connection (or resumes a TLS session) only for the same client
// certificate, so a plugin's new certificate is presented at once: a certificate the server does not
// trust fails although the connection made with the good one is still open.
TEST_CASE("exec plugin client certificates: a rotated certificate is used on a new connection") {
  rr_test::TestServer server(pki().path("server.crt"), pki().path("server.key"), pki().path("ca.crt"));
  answer_ok(server);
  server.start();
  rr_test::PluginDir plugin;
  plugin.certificate(pki().pem("client.crt"), pki().pem("client.key"), "2001-01-01T00:00:00Z", "out-1.json");
  plugin.certificate(pki().pem("other-ca.crt"), pki().pem("other-ca.key"), "2001-01-01T00:00:00Z", "out-2.json");
  plugin.certificate(pki().pem("client.crt"), pki().pem("client.key"));
  rr::RestConfig config = rr_test::config_for(server);
  config.ca_data = pki().pem("ca.crt");
  config.exec = plugin.exec();
  rr::HttpClient client(config, no_retries());
  CHECK(client.get_path("/version")["major"] == "1");
  CHECK(failure_of(client).code == 0);  // the untrusted certificate: the TLS handshake fails
  CHECK(client.get_path("/version")["major"] == "1");
  CHECK(client.get_path("/version")["major"] == "1");
  CHECK(plugin.runs() == 3);
}
