// X.509 for the cert-manager subset (OpenSSL): key pairs as the spec asks, certificates signed by
// themselves (selfSigned) or by a CA key pair (ca), and the reads the issuance checks need.
#pragma once
#include <chrono>
#include <optional>
#include <string>

#include "rr/cert_manager/certificate_spec.hpp"

namespace rr::cert_manager {

// A CA's key pair as PEM (a `ca` issuer's Secret: tls.crt, tls.key).
struct KeyPairPem {
  std::string certificate;
  std::string private_key;
};

struct IssuedCertificate {
  std::string certificate_pem;
  std::string private_key_pem;
  std::chrono::system_clock::time_point not_before, not_after;
};

// Issues a certificate for `spec` valid from `now` for spec.duration, signed by `ca` (nullptr:
// self-signed). `reuse_key_pem`: the private key to keep (rotationPolicy Never), empty for a new
// one. Throws std::runtime_error with a message for the Certificate's status when it cannot.
IssuedCertificate issue_certificate(const CertificateSpec& spec, const KeyPairPem* ca, const std::string& reuse_key_pem,
                                    std::chrono::system_clock::time_point now);

struct CertificateFacts {
  std::chrono::system_clock::time_point not_before, not_after;
  bool is_ca = false;
};

// The first certificate of a PEM text; nullopt with `error` set when there is none.
std::optional<CertificateFacts> read_certificate(const std::string& pem, std::string& error);

// Whether `key_pem` is a private key whose public half is the certificate's; false with `error`
// set (cert-manager's wording) when either does not parse or they differ.
bool key_pair_matches(const std::string& certificate_pem, const std::string& key_pem, std::string& error);

// Whether a private key (PEM) is of the spec's algorithm and size (rotationPolicy Never reuses it only then).
bool key_matches_spec(const std::string& key_pem, const PrivateKeySpec& spec);

}  // namespace rr::cert_manager
