// Issuing certificates with OpenSSL, as cert-manager's selfSigned and ca issuers make them.
#include "x509_issue.hpp"

#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/rand.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

#include <ctime>
#include <map>
#include <memory>
#include <stdexcept>

namespace rr::cert_manager {
namespace {

template <auto Free>
struct OsslFree {
  template <class T>
  void operator()(T* p) const {
    Free(p);
  }
};
using BioPtr = std::unique_ptr<BIO, OsslFree<BIO_free>>;
using KeyPtr = std::unique_ptr<EVP_PKEY, OsslFree<EVP_PKEY_free>>;
using CertPtr = std::unique_ptr<X509, OsslFree<X509_free>>;

void need(bool ok, const char* what) {
  if (!ok) throw std::runtime_error(std::string("issuing certificate: OpenSSL failed: ") + what);
}

BioPtr bio_of(const std::string& text) { return BioPtr(BIO_new_mem_buf(text.data(), static_cast<int>(text.size()))); }

std::string text_of(BIO* bio) {
  char* data = nullptr;
  const long size = BIO_get_mem_data(bio, &data);
  return std::string(data, static_cast<std::size_t>(size));
}

KeyPtr parse_key(const std::string& pem) {
  auto bio = bio_of(pem);
  return KeyPtr(bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

CertPtr parse_certificate(const std::string& pem) {
  auto bio = bio_of(pem);
  return CertPtr(bio ? PEM_read_bio_X509(bio.get(), nullptr, nullptr, nullptr) : nullptr);
}

KeyPtr generate_key(const PrivateKeySpec& spec) {
  switch (spec.algorithm) {
    case KeyAlgorithm::RSA: return KeyPtr(EVP_RSA_gen(static_cast<unsigned>(spec.size)));
    case KeyAlgorithm::ECDSA:
      return KeyPtr(EVP_EC_gen(spec.size == 384 ? "P-384" : spec.size == 521 ? "P-521" : "P-256"));
    case KeyAlgorithm::Ed25519: return KeyPtr(EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519"));
  }
  return nullptr;
}

// PKCS1 is the "traditional" form (RSA PRIVATE KEY, EC PRIVATE KEY); Ed25519 has none, so PKCS8.
std::string key_pem(EVP_PKEY* key, KeyEncoding encoding) {
  BioPtr bio(BIO_new(BIO_s_mem()));
  need(bio != nullptr, "BIO_new");
  const bool traditional = encoding == KeyEncoding::PKCS1 && EVP_PKEY_get_base_id(key) != EVP_PKEY_ED25519;
  const int ok = traditional
                     ? PEM_write_bio_PrivateKey_traditional(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr)
                     : PEM_write_bio_PrivateKey(bio.get(), key, nullptr, nullptr, 0, nullptr, nullptr);
  need(ok == 1, "writing the private key");
  return text_of(bio.get());
}

// The digest cert-manager's signer picks for the signing key: none for Ed25519, SHA-384/512 for
// the larger curves, SHA-256 otherwise.
const EVP_MD* digest_for(EVP_PKEY* signer) {
  if (EVP_PKEY_get_base_id(signer) == EVP_PKEY_ED25519) return nullptr;
  if (EVP_PKEY_get_base_id(signer) == EVP_PKEY_EC) {
    if (EVP_PKEY_get_bits(signer) == 384) return EVP_sha384();
    if (EVP_PKEY_get_bits(signer) == 521) return EVP_sha512();
  }
  return EVP_sha256();
}

void add_name_entry(X509_NAME* name, const char* field, const std::string& value) {
  need(X509_NAME_add_entry_by_txt(name, field, MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(value.c_str()),
                                  static_cast<int>(value.size()), -1, 0) == 1,
       "subject");
}

void add_conf_extension(X509* cert, X509V3_CTX* ctx, int nid, const std::string& value) {
  X509_EXTENSION* ext = X509V3_EXT_conf_nid(nullptr, ctx, nid, value.c_str());
  need(ext != nullptr, "extension");
  const int ok = X509_add_ext(cert, ext, -1);
  X509_EXTENSION_free(ext);
  need(ok == 1, "X509_add_ext");
}

// Built from values, never from a configuration string: a name may hold any character.
void add_subject_alt_names(X509* cert, const CertificateSpec& spec, bool critical) {
  std::unique_ptr<GENERAL_NAMES, OsslFree<GENERAL_NAMES_free>> names(sk_GENERAL_NAME_new_null());
  need(names != nullptr, "GENERAL_NAMES");
  auto push_string = [&](int type, const std::string& value) {
    GENERAL_NAME* name = GENERAL_NAME_new();
    ASN1_IA5STRING* text = ASN1_IA5STRING_new();
    need(name && text && ASN1_STRING_set(text, value.data(), static_cast<int>(value.size())) == 1, "SAN");
    GENERAL_NAME_set0_value(name, type, text);
    sk_GENERAL_NAME_push(names.get(), name);
  };
  for (const auto& dns : spec.dns_names) push_string(GEN_DNS, dns);
  for (const auto& ip : spec.ip_addresses) {
    ASN1_OCTET_STRING* octets = a2i_IPADDRESS(ip.c_str());
    need(octets != nullptr, "IP address");
    GENERAL_NAME* name = GENERAL_NAME_new();
    need(name != nullptr, "SAN");
    GENERAL_NAME_set0_value(name, GEN_IPADD, octets);
    sk_GENERAL_NAME_push(names.get(), name);
  }
  for (const auto& uri : spec.uris) push_string(GEN_URI, uri);
  if (sk_GENERAL_NAME_num(names.get()) == 0) return;
  need(X509_add1_ext_i2d(cert, NID_subject_alt_name, names.get(), critical ? 1 : 0, X509V3_ADD_DEFAULT) == 1, "SAN");
}

// Key usages and extended key usages as cert-manager maps spec.usages onto x509.
void add_usages(X509* cert, X509V3_CTX* ctx, const CertificateSpec& spec) {
  static const std::map<std::string, std::string> key_usage{{"signing", "digitalSignature"},
                                                            {"digital signature", "digitalSignature"},
                                                            {"content commitment", "nonRepudiation"},
                                                            {"key encipherment", "keyEncipherment"},
                                                            {"key agreement", "keyAgreement"},
                                                            {"data encipherment", "dataEncipherment"},
                                                            {"cert sign", "keyCertSign"},
                                                            {"crl sign", "cRLSign"},
                                                            {"encipher only", "encipherOnly"},
                                                            {"decipher only", "decipherOnly"}};
  static const std::map<std::string, std::string> extended{{"any", "anyExtendedKeyUsage"},
                                                           {"server auth", "serverAuth"},
                                                           {"client auth", "clientAuth"},
                                                           {"code signing", "codeSigning"},
                                                           {"email protection", "emailProtection"},
                                                           {"s/mime", "emailProtection"},
                                                           {"ipsec end system", "ipsecEndSystem"},
                                                           {"ipsec tunnel", "ipsecTunnel"},
                                                           {"ipsec user", "ipsecUser"},
                                                           {"timestamping", "timeStamping"},
                                                           {"ocsp signing", "OCSPSigning"},
                                                           {"microsoft sgc", "msSGC"},
                                                           {"netscape sgc", "nsSGC"}};
  std::string ku, eku;
  auto append = [](std::string& list, const std::string& item) {
    if (list.find(item) == std::string::npos) list += (list.empty() ? "" : ",") + item;
  };
  for (const auto& usage : spec.usages) {
    if (auto it = key_usage.find(usage); it != key_usage.end()) append(ku, it->second);
    if (auto it = extended.find(usage); it != extended.end()) append(eku, it->second);
  }
  if (spec.is_ca) append(ku, "keyCertSign");
  if (!ku.empty()) add_conf_extension(cert, ctx, NID_key_usage, "critical," + ku);
  if (!eku.empty()) add_conf_extension(cert, ctx, NID_ext_key_usage, eku);
}

std::chrono::system_clock::time_point time_of(const ASN1_TIME* time) {
  std::tm tm{};
  need(ASN1_TIME_to_tm(time, &tm) == 1, "ASN1_TIME_to_tm");
  return std::chrono::system_clock::from_time_t(timegm(&tm));
}

}  // namespace

IssuedCertificate issue_certificate(const CertificateSpec& spec, const KeyPairPem* ca, const std::string& reuse_key_pem,
                                    std::chrono::system_clock::time_point now) {
  KeyPtr key = reuse_key_pem.empty() ? generate_key(spec.private_key) : parse_key(reuse_key_pem);
  need(key != nullptr, "key generation");
  CertPtr ca_cert;
  KeyPtr ca_key;
  if (ca != nullptr) {
    ca_cert = parse_certificate(ca->certificate);
    ca_key = parse_key(ca->private_key);
    if (!ca_cert || !ca_key) throw std::runtime_error("error decoding the CA's key pair");
  }
  CertPtr cert(X509_new());
  need(cert != nullptr, "X509_new");
  need(X509_set_version(cert.get(), 2) == 1, "version");
  unsigned char serial[16];
  need(RAND_bytes(serial, sizeof serial) == 1, "RAND_bytes");
  serial[0] &= 0x7f;  // positive
  std::unique_ptr<BIGNUM, OsslFree<BN_free>> number(BN_bin2bn(serial, sizeof serial, nullptr));
  need(number && BN_to_ASN1_INTEGER(number.get(), X509_get_serialNumber(cert.get())) != nullptr, "serial");
  const auto not_before = std::chrono::time_point_cast<std::chrono::seconds>(now);
  const auto not_after = not_before + spec.duration;
  need(ASN1_TIME_set(X509_getm_notBefore(cert.get()), std::chrono::system_clock::to_time_t(not_before)) != nullptr,
       "notBefore");
  need(ASN1_TIME_set(X509_getm_notAfter(cert.get()), std::chrono::system_clock::to_time_t(not_after)) != nullptr,
       "notAfter");
  need(X509_set_pubkey(cert.get(), key.get()) == 1, "public key");
  X509_NAME* subject = X509_get_subject_name(cert.get());
  for (const auto& o : spec.organizations) add_name_entry(subject, "O", o);
  for (const auto& ou : spec.organizational_units) add_name_entry(subject, "OU", ou);
  if (!spec.common_name.empty()) add_name_entry(subject, "CN", spec.common_name);
  need(X509_set_issuer_name(cert.get(), ca_cert ? X509_get_subject_name(ca_cert.get()) : subject) == 1, "issuer");

  X509V3_CTX ctx;
  X509V3_set_ctx_nodb(&ctx);
  X509V3_set_ctx(&ctx, ca_cert ? ca_cert.get() : cert.get(), cert.get(), nullptr, nullptr, 0);
  add_conf_extension(cert.get(), &ctx, NID_basic_constraints, spec.is_ca ? "critical,CA:TRUE" : "critical,CA:FALSE");
  add_usages(cert.get(), &ctx, spec);
  add_conf_extension(cert.get(), &ctx, NID_subject_key_identifier, "hash");
  if (ca_cert) add_conf_extension(cert.get(), &ctx, NID_authority_key_identifier, "keyid:always");
  // An empty subject makes the SANs the only identity: RFC 5280 wants them critical then.
  add_subject_alt_names(cert.get(), spec, X509_NAME_entry_count(subject) == 0);

  EVP_PKEY* signer = ca_key ? ca_key.get() : key.get();
  need(X509_sign(cert.get(), signer, digest_for(signer)) > 0, "signing");

  BioPtr out(BIO_new(BIO_s_mem()));
  need(out && PEM_write_bio_X509(out.get(), cert.get()) == 1, "writing the certificate");
  IssuedCertificate issued;
  issued.certificate_pem = text_of(out.get());
  issued.private_key_pem = key_pem(key.get(), spec.private_key.encoding);
  issued.not_before = not_before;
  issued.not_after = not_after;
  return issued;
}

std::optional<CertificateFacts> read_certificate(const std::string& pem, std::string& error) {
  CertPtr cert = parse_certificate(pem);
  if (!cert) {
    error = "error decoding certificate PEM block";
    return std::nullopt;
  }
  CertificateFacts facts;
  facts.not_before = time_of(X509_get0_notBefore(cert.get()));
  facts.not_after = time_of(X509_get0_notAfter(cert.get()));
  facts.is_ca = X509_check_ca(cert.get()) >= 1;
  return facts;
}

bool key_pair_matches(const std::string& certificate_pem, const std::string& key_pem_text, std::string& error) {
  KeyPtr key = parse_key(key_pem_text);
  if (!key) {
    error = "error decoding private key PEM block";
    return false;
  }
  CertPtr cert = parse_certificate(certificate_pem);
  if (!cert) {
    error = "error decoding certificate PEM block";
    return false;
  }
  if (X509_check_private_key(cert.get(), key.get()) != 1) {
    error = "the private key does not match the certificate";
    return false;
  }
  return true;
}

bool key_matches_spec(const std::string& key_pem_text, const PrivateKeySpec& spec) {
  KeyPtr key = parse_key(key_pem_text);
  if (!key) return false;
  switch (spec.algorithm) {
    case KeyAlgorithm::RSA:
      return EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_RSA && EVP_PKEY_get_bits(key.get()) == spec.size;
    case KeyAlgorithm::ECDSA:
      return EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_EC && EVP_PKEY_get_bits(key.get()) == spec.size;
    case KeyAlgorithm::Ed25519: return EVP_PKEY_get_base_id(key.get()) == EVP_PKEY_ED25519;
  }
  return false;
}

}  // namespace rr::cert_manager
