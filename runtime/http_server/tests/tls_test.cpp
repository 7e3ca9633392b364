// The server over TLS on 127.0.0.1: requests answered, the certificate reloaded when its files
// change (and kept when the new pair does not load), and tls_dial.
#include <doctest/doctest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <sys/socket.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "rr/apiserver/dev_certificates.hpp"
#include "rr/http_server/self_signed.hpp"
#include "rr/http_server/server.hpp"
#include "rr/http_server/tls.hpp"

using namespace std::chrono_literals;
using rr::http_server::CertificateFiles;
using rr::http_server::Request;
using rr::http_server::Response;
using rr::http_server::Server;
using rr::http_server::ServerOptions;
using rr::http_server::Target;

namespace {

void write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream(path, std::ios::binary | std::ios::trunc) << text;
}

// A directory with tls.crt and tls.key, removed at the end.
struct CertDir {
  std::filesystem::path path;
  CertDir() {
    std::string pattern = (std::filesystem::temp_directory_path() / "rr-tls-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~CertDir() { std::filesystem::remove_all(path); }
  CertDir(const CertDir&) = delete;
  CertDir& operator=(const CertDir&) = delete;
  std::string cert() const { return (path / "tls.crt").string(); }
  std::string key() const { return (path / "tls.key").string(); }
  void write(const rr::DevCertificates& pair) const {
    write_file(cert(), pair.server_cert_pem);
    write_file(key(), pair.server_key_pem);
  }
};

// One TLS connection: the server's certificate as PEM, and what a request got back.
struct TlsExchange {
  bool handshake = false;
  std::string peer_pem;
  std::string reply;
};

TlsExchange tls_exchange(int port, const std::string& request) {
  TlsExchange out;
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(static_cast<std::uint16_t>(port));
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  REQUIRE(::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0);
  const std::unique_ptr<SSL_CTX, decltype(&SSL_CTX_free)> context(SSL_CTX_new(TLS_client_method()), &SSL_CTX_free);
  const std::unique_ptr<SSL, decltype(&SSL_free)> ssl(SSL_new(context.get()), &SSL_free);
  SSL_set_fd(ssl.get(), fd);
  out.handshake = SSL_connect(ssl.get()) == 1;
  if (out.handshake) {
    X509* peer = SSL_get1_peer_certificate(ssl.get());
    BIO* bio = BIO_new(BIO_s_mem());
    PEM_write_bio_X509(bio, peer);
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    out.peer_pem.assign(data, static_cast<std::size_t>(size));
    BIO_free(bio);
    X509_free(peer);
    SSL_write(ssl.get(), request.data(), static_cast<int>(request.size()));
    char chunk[4096];
    for (int got = 0; (got = SSL_read(ssl.get(), chunk, sizeof chunk)) > 0;)
      out.reply.append(chunk, static_cast<std::size_t>(got));
  }
  ERR_clear_error();
  ::close(fd);
  return out;
}

constexpr std::string_view post =
    "POST /validate HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello";

Response echo_body(const Request& request, const Target& target) {
  Response response;
  response.body = target.path + " " + request.body;
  return response;
}

ServerOptions tls_options(std::shared_ptr<CertificateFiles> files) {
  ServerOptions options;
  options.connection.methods = {"POST"};
  options.connection.max_body = 1024;
  options.tls = std::move(files);
  return options;
}

}  // namespace

TEST_CASE("over TLS a POST is answered with the certificate of the files") {
  const CertDir dir;
  const rr::DevCertificates pair = rr::make_dev_certificates();
  dir.write(pair);
  Server server(echo_body, tls_options(std::make_shared<CertificateFiles>(dir.cert(), dir.key())));
  const int port = server.start("127.0.0.1", 0);
  const TlsExchange got = tls_exchange(port, std::string(post));
  REQUIRE(got.handshake);
  CHECK(got.peer_pem == pair.server_cert_pem);
  CHECK(got.reply.starts_with("HTTP/1.1 200 OK\r\n"));
  CHECK(got.reply.ends_with("\r\n\r\n/validate hello"));
  CHECK(rr::http_server::tls_dial("127.0.0.1", port, 2s) == std::nullopt);
}

TEST_CASE("a rotated pair serves from the next handshake; a pair that does not load keeps the old one") {
  const CertDir dir;
  const rr::DevCertificates first = rr::make_dev_certificates();
  dir.write(first);
  std::mutex mutex;
  std::vector<std::string> logged;
  const auto files = std::make_shared<CertificateFiles>(dir.cert(), dir.key(), [&](std::string_view line) {
    const std::lock_guard lock(mutex);
    logged.emplace_back(line);
  });
  Server server(echo_body, tls_options(files));
  const int port = server.start("127.0.0.1", 0);
  CHECK(tls_exchange(port, std::string(post)).peer_pem == first.server_cert_pem);

  const rr::DevCertificates second = rr::make_dev_certificates();
  dir.write(second);
  const TlsExchange rotated = tls_exchange(port, std::string(post));
  CHECK(rotated.peer_pem == second.server_cert_pem);
  CHECK(rotated.reply.ends_with("/validate hello"));
  CHECK(files->reloads() == 1);

  // Half written: the next certificate is there, its key not yet.
  const rr::DevCertificates third = rr::make_dev_certificates();
  write_file(dir.cert(), third.server_cert_pem);
  CHECK(tls_exchange(port, std::string(post)).peer_pem == second.server_cert_pem);
  CHECK(tls_exchange(port, std::string(post)).peer_pem == second.server_cert_pem);
  {
    const std::lock_guard lock(mutex);
    REQUIRE(logged.size() == 2);  // the reload, then the failure once
    CHECK(logged[0] == "tls: certificate reloaded from " + dir.cert() + " and " + dir.key());
    CHECK(logged[1] == "tls: private key " + dir.key() + " does not match certificate " + dir.cert() +
                           "; serving the previous certificate");
  }
  write_file(dir.key(), third.server_key_pem);
  CHECK(tls_exchange(port, std::string(post)).peer_pem == third.server_cert_pem);
  CHECK(files->reloads() == 2);

  // The files gone (a Secret volume between two versions): the last pair goes on serving.
  std::filesystem::remove(dir.cert());
  CHECK(tls_exchange(port, std::string(post)).peer_pem == third.server_cert_pem);
  const std::lock_guard lock(mutex);
  CHECK(logged.back() ==
        "tls: certificate files missing, serving the previous certificate: " + dir.cert() + ", " + dir.key());
}

TEST_CASE("a pair that does not load at the start is an error naming the file") {
  const CertDir dir;
  write_file(dir.cert(), "not a certificate");
  write_file(dir.key(), "not a key");
  const std::string expected = "tls: cannot load certificate " + dir.cert() + ": ";
  CHECK_THROWS_WITH_AS(CertificateFiles(dir.cert(), dir.key()), doctest::Contains(expected.c_str()),
                       std::runtime_error);
}

TEST_CASE("tls_dial fails on a plain HTTP server and on a closed port, saying why") {
  Server plain(echo_body);
  const int port = plain.start("127.0.0.1", 0);
  const auto failed = rr::http_server::tls_dial("127.0.0.1", port, 2s);
  REQUIRE(failed);
  CHECK(failed->starts_with("dial tcp 127.0.0.1:" + std::to_string(port) + ": TLS handshake failed: "));
  plain.stop();
  const auto refused = rr::http_server::tls_dial("127.0.0.1", port, 2s);
  REQUIRE(refused);
  CHECK(*refused == "dial tcp 127.0.0.1:" + std::to_string(port) + ": connect: Connection refused");
}

TEST_CASE("a self-signed certificate made in memory is served, for the names and addresses it was made for") {
  const auto pem = rr::http_server::make_self_signed_certificate({"localhost", "metrics.svc"}, {"127.0.0.1"});
  CHECK(pem.cert_pem.starts_with("-----BEGIN CERTIFICATE-----\n"));
  Server server(echo_body, tls_options(CertificateFiles::from_pem(pem.cert_pem, pem.key_pem)));
  const int port = server.start("127.0.0.1", 0);
  const TlsExchange got = tls_exchange(port, std::string(post));
  REQUIRE(got.handshake);
  CHECK(got.peer_pem == pem.cert_pem);
  CHECK(got.reply.ends_with("/validate hello"));

  BIO* bio = BIO_new_mem_buf(pem.cert_pem.data(), static_cast<int>(pem.cert_pem.size()));
  X509* cert = PEM_read_bio_X509(bio, nullptr, nullptr, nullptr);
  REQUIRE(cert != nullptr);
  CHECK(X509_check_host(cert, "localhost", 0, 0, nullptr) == 1);
  CHECK(X509_check_host(cert, "metrics.svc", 0, 0, nullptr) == 1);
  CHECK(X509_check_host(cert, "example.com", 0, 0, nullptr) == 0);
  CHECK(X509_check_ip_asc(cert, "127.0.0.1", 0) == 1);
  X509_free(cert);
  BIO_free(bio);

  const auto other = rr::http_server::make_self_signed_certificate({"localhost"}, {});
  CHECK_THROWS_WITH_AS(CertificateFiles::from_pem(pem.cert_pem, other.key_pem),
                       doctest::Contains("tls: cannot load private key"), std::runtime_error);
}
