#include "rr/apiserver/dev_certificates.hpp"

#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace rr {

namespace {

struct X509Free {
  void operator()(X509* x) const { X509_free(x); }
};
struct KeyFree {
  void operator()(EVP_PKEY* k) const { EVP_PKEY_free(k); }
};
struct BioFree {
  void operator()(BIO* b) const { BIO_free(b); }
};
using CertPtr = std::unique_ptr<X509, X509Free>;
using KeyPtr = std::unique_ptr<EVP_PKEY, KeyFree>;

void check(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("make_dev_certificates: OpenSSL failed: ") + what);
}

KeyPtr new_key() {
  KeyPtr key(EVP_EC_gen("P-256"));
  check(key != nullptr, "EC key generation");
  return key;
}

void add_extension(X509* cert, X509* issuer, int nid, const char* value) {
  X509V3_CTX ctx;
  X509V3_set_ctx(&ctx, issuer, cert, nullptr, nullptr, 0);
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, &ctx, nid, value);
  check(ext != nullptr, "certificate extension");
  const int added = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  check(added == 1, "adding an extension");
}

struct Subject {
  std::string common_name;
  std::string organization;  // empty: none
};

// A certificate for `key`, signed by issuer_key (self-signed when issuer is null).
CertPtr new_certificate(EVP_PKEY* key, const Subject& subject, X509* issuer, EVP_PKEY* issuer_key,
                        const std::vector<std::pair<int, const char*>>& extensions) {
  CertPtr cert(X509_new());
  check(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  unsigned char serial_bytes[16];
  check(RAND_bytes(serial_bytes, sizeof serial_bytes) == 1, "RAND_bytes");
  serial_bytes[0] &= 0x7f;  // positive
  BIGNUM* serial = BN_bin2bn(serial_bytes, sizeof serial_bytes, nullptr);
  BN_to_ASN1_INTEGER(serial, X509_get_serialNumber(cert.get()));
  BN_free(serial);
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key);
  X509_NAME* name = X509_get_subject_name(cert.get());
  if (!subject.organization.empty()) {
    X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8,
                               reinterpret_cast<const unsigned char*>(subject.organization.c_str()), -1, -1, 0);
  }
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                             reinterpret_cast<const unsigned char*>(subject.common_name.c_str()), -1, -1, 0);
  X509* signer = issuer ? issuer : cert.get();
  X509_set_issuer_name(cert.get(), X509_get_subject_name(signer));
  for (const auto& [nid, value] : extensions) add_extension(cert.get(), signer, nid, value);
  check(X509_sign(cert.get(), issuer_key ? issuer_key : key, EVP_sha256()) > 0, "X509_sign");
  return cert;
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

std::string cert_pem(X509* cert) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_X509(bio.get(), cert) == 1, "PEM_write_bio_X509");
  return bio_text(bio.get());
}

std::string key_pem(EVP_PKEY* key) {
  std::unique_ptr<BIO, BioFree> bio(BIO_new(BIO_s_mem()));
  check(PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr) == 1, "PEM_write_bio_PrivateKey");
  return bio_text(bio.get());
}

}  // namespace

DevCertificates make_dev_certificates(const std::string& client_user,
                                      const std::vector<std::string>& server_dns_names) {
  std::string server_names = "IP:127.0.0.1,DNS:localhost";
  for (const auto& name : server_dns_names) server_names += ",DNS:" + name;
  KeyPtr ca_key = new_key();
  CertPtr ca = new_certificate(ca_key.get(), {"rrgen-local-ca", ""}, nullptr, nullptr,
                               {{NID_basic_constraints, "critical,CA:TRUE"},
                                {NID_key_usage, "critical,keyCertSign,cRLSign,digitalSignature"},
                                {NID_subject_key_identifier, "hash"}});
  KeyPtr server_key = new_key();
  CertPtr server = new_certificate(server_key.get(), {"rrgen-local-apiserver", ""}, ca.get(), ca_key.get(),
                                   {{NID_basic_constraints, "critical,CA:FALSE"},
                                    {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                    {NID_ext_key_usage, "serverAuth"},
                                    {NID_subject_alt_name, server_names.c_str()},
                                    {NID_authority_key_identifier, "keyid:always"}});
  KeyPtr client_key = new_key();
  CertPtr client = new_certificate(client_key.get(), {client_user, "system:masters"}, ca.get(), ca_key.get(),
                                   {{NID_basic_constraints, "critical,CA:FALSE"},
                                    {NID_key_usage, "critical,digitalSignature,keyEncipherment"},
                                    {NID_ext_key_usage, "clientAuth"},
                                    {NID_authority_key_identifier, "keyid:always"}});
  return DevCertificates{
      .ca_pem = cert_pem(ca.get()),
      .server_cert_pem = cert_pem(server.get()),
      .server_key_pem = key_pem(server_key.get()),
      .client_cert_pem = cert_pem(client.get()),
      .client_key_pem = key_pem(client_key.get()),
  };
}

TlsOptions tls_options(const DevCertificates& certs) {
  TlsOptions tls;
  tls.cert_pem = certs.server_cert_pem;
  tls.key_pem = certs.server_key_pem;
  tls.client_ca_pem = certs.ca_pem;
  tls.ca_pem = certs.ca_pem;
  return tls;
}

KubeconfigUser kubeconfig_user(const DevCertificates& certs, std::string name) {
  KubeconfigUser user;
  user.name = std::move(name);
  user.client_certificate_pem = certs.client_cert_pem;
  user.client_key_pem = certs.client_key_pem;
  return user;
}

}  // namespace rr
