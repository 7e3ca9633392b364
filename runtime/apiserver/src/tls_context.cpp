#include "tls_context.hpp"

#include <fstream>
#include <memory>
#include <sstream>
#include <stdexcept>

#include <openssl/pem.h>
#include <openssl/x509.h>

namespace rr::apiserver_detail {

namespace {

struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};

std::unique_ptr<BIO, BioFree> memory_bio(const std::string& text) {
  return std::unique_ptr<BIO, BioFree>(BIO_new_mem_buf(text.data(), static_cast<int>(text.size())));
}

}  // namespace

std::string pem_from(const std::string& pem, const std::string& file, const char* what) {
  if (file.empty()) return pem;
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::invalid_argument(std::string("cannot read ") + what + " file " + file);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

bool configure_server_tls(SSL_CTX& ctx, const std::string& cert_pem, const std::string& key_pem,
                          const std::string& client_ca_pem) {
  SSL_CTX_set_min_proto_version(&ctx, TLS1_2_VERSION);
  SSL_CTX_set_options(&ctx, SSL_OP_NO_COMPRESSION);

  auto certs = memory_bio(cert_pem);
  std::unique_ptr<X509, X509Free> leaf(PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr));
  if (!leaf || SSL_CTX_use_certificate(&ctx, leaf.get()) != 1) return false;
  while (X509* chain = PEM_read_bio_X509(certs.get(), nullptr, nullptr, nullptr)) {
    if (SSL_CTX_add_extra_chain_cert(&ctx, chain) != 1) {  // takes ownership on success
      X509_free(chain);
      return false;
    }
  }
  auto key_bio = memory_bio(key_pem);
  std::unique_ptr<EVP_PKEY, KeyFree> key(PEM_read_bio_PrivateKey(key_bio.get(), nullptr, nullptr, nullptr));
  if (!key || SSL_CTX_use_PrivateKey(&ctx, key.get()) != 1 || SSL_CTX_check_private_key(&ctx) != 1) return false;

  if (!client_ca_pem.empty()) {
    auto cas = memory_bio(client_ca_pem);
    X509_STORE* store = SSL_CTX_get_cert_store(&ctx);
    int added = 0;
    while (X509* ca = PEM_read_bio_X509(cas.get(), nullptr, nullptr, nullptr)) {
      X509_STORE_add_cert(store, ca);
      SSL_CTX_add_client_CA(&ctx, ca);
      X509_free(ca);
      ++added;
    }
    if (added == 0) return false;
    SSL_CTX_set_verify(&ctx, SSL_VERIFY_PEER, nullptr);
    // With peer verification OpenSSL refuses to resume a session that has no id context (a fatal
    // alert), and clients that share TLS sessions between connections (rr::HttpClient) resume.
    static constexpr unsigned char session_context[] = "rrgen-apiserver";
    SSL_CTX_set_session_id_context(&ctx, session_context, sizeof(session_context) - 1);
  }
  return true;
}

bool client_certificate_verified(const SSL* ssl) {
  if (!ssl) return false;
  X509* peer = SSL_get1_peer_certificate(ssl);
  if (!peer) return false;
  X509_free(peer);
  return SSL_get_verify_result(ssl) == X509_V_OK;
}

std::optional<CertificateIdentity> client_certificate_identity(const SSL* ssl) {
  if (!client_certificate_verified(ssl)) return std::nullopt;
  X509* peer = SSL_get1_peer_certificate(ssl);
  if (!peer) return std::nullopt;
  CertificateIdentity out;
  const X509_NAME* subject = X509_get_subject_name(peer);
  const int count = subject ? X509_NAME_entry_count(subject) : 0;
  for (int i = 0; i < count; ++i) {
    const X509_NAME_ENTRY* entry = X509_NAME_get_entry(subject, i);
    const int nid = OBJ_obj2nid(X509_NAME_ENTRY_get_object(entry));
    if (nid != NID_commonName && nid != NID_organizationName) continue;
    unsigned char* text = nullptr;
    const int length = ASN1_STRING_to_UTF8(&text, X509_NAME_ENTRY_get_data(entry));
    if (length < 0) continue;
    std::string value(reinterpret_cast<const char*>(text), static_cast<std::size_t>(length));
    OPENSSL_free(text);
    if (nid == NID_commonName) {
      out.user = std::move(value);
    } else {
      out.groups.push_back(std::move(value));
    }
  }
  X509_free(peer);
  return out;
}

}  // namespace rr::apiserver_detail
