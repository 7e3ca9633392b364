// A self-signed certificate in memory (see self_signed.hpp).
#include "rr/http_server/self_signed.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <memory>
#include <stdexcept>

namespace rr::http_server {
namespace {

template <auto Free>
struct Deleter {
  template <class T>
  void operator()(T* p) const {
    Free(p);
  }
};

void require(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("self-signed certificate: OpenSSL failed: ") + what);
}

std::string pem_of(const std::unique_ptr<BIO, Deleter<BIO_free>>& bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio.get(), &data);
  return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace

CertificatePem make_self_signed_certificate(const std::vector<std::string>& dns_names,
                                            const std::vector<std::string>& ip_addresses) {
  const std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>> key(EVP_EC_gen("P-256"));
  require(key != nullptr, "EC key generation");
  const std::unique_ptr<X509, Deleter<X509_free>> cert(X509_new());
  require(cert != nullptr, "X509_new");
  X509_set_version(cert.get(), 2);
  unsigned char serial[16];
  require(RAND_bytes(serial, sizeof serial) == 1, "RAND_bytes");
  serial[0] &= 0x7f;  // a positive serial number
  const std::unique_ptr<BIGNUM, Deleter<BN_free>> number(BN_bin2bn(serial, sizeof serial, nullptr));
  require(number && BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(cert.get())) != nullptr, "serial");
  X509_gmtime_adj(X509_getm_notBefore(cert.get()), -3600);  // tolerate a clock a little behind
  X509_gmtime_adj(X509_getm_notAfter(cert.get()), 365L * 24 * 3600);
  X509_set_pubkey(cert.get(), key.get());
  const std::string common_name = dns_names.empty() ? std::string("localhost") : dns_names.front();
  X509_NAME* name = X509_get_subject_name(cert.get());
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common_name.c_str()), -1,
                             -1, 0);
  X509_set_issuer_name(cert.get(), name);
  std::string alt_names;
  for (const auto& dns : dns_names) alt_names += (alt_names.empty() ? "DNS:" : ",DNS:") + dns;
  for (const auto& ip : ip_addresses) alt_names += (alt_names.empty() ? "IP:" : ",IP:") + ip;
  const std::string extensions[][2] = {{"basicConstraints", "critical,CA:FALSE"},
                                       {"keyUsage", "critical,digitalSignature"},
                                       {"extendedKeyUsage", "serverAuth"},
                                       {"subjectAltName", alt_names}};
  for (const auto& [ext_name, value] : extensions) {
    if (value.empty()) continue;
    X509V3_CTX context;
    X509V3_set_ctx(&context, cert.get(), cert.get(), nullptr, nullptr, 0);
    X509_EXTENSION* extension = X509V3_EXT_conf(nullptr, &context, ext_name.c_str(), value.c_str());
    require(extension != nullptr, "certificate extension");
    const int added = X509_add_ext(cert.get(), extension, -1);
    X509_EXTENSION_free(extension);
    require(added == 1, "adding an extension");
  }
  require(X509_sign(cert.get(), key.get(), EVP_sha256()) > 0, "X509_sign");

  const std::unique_ptr<BIO, Deleter<BIO_free>> cert_bio(BIO_new(BIO_s_mem()));
  const std::unique_ptr<BIO, Deleter<BIO_free>> key_bio(BIO_new(BIO_s_mem()));
  require(cert_bio && key_bio, "BIO_new");
  require(PEM_write_bio_X509(cert_bio.get(), cert.get()) == 1, "PEM_write_bio_X509");
  require(PEM_write_bio_PrivateKey(key_bio.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) == 1,
          "PEM_write_bio_PrivateKey");
  return CertificatePem{pem_of(cert_bio), pem_of(key_bio)};
}

}  // namespace rr::http_server
