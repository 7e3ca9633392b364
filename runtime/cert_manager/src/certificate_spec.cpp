// Reading a Certificate's spec: Go durations, cert-manager's defaults and its webhook's checks.
#include "rr/cert_manager/certificate_spec.hpp"

#include <arpa/inet.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "rr/core/go_duration.hpp"
#include "rr/core/go_quote.hpp"

namespace rr::cert_manager {
namespace {

using namespace std::chrono_literals;

const std::array<std::string_view, 23> known_usages{"signing",
                                                    "digital signature",
                                                    "content commitment",
                                                    "key encipherment",
                                                    "key agreement",
                                                    "data encipherment",
                                                    "cert sign",
                                                    "crl sign",
                                                    "encipher only",
                                                    "decipher only",
                                                    "any",
                                                    "server auth",
                                                    "client auth",
                                                    "code signing",
                                                    "email protection",
                                                    "s/mime",
                                                    "ipsec end system",
                                                    "ipsec tunnel",
                                                    "ipsec user",
                                                    "timestamping",
                                                    "ocsp signing",
                                                    "microsoft sgc",
                                                    "netscape sgc"};

bool valid_ip(const std::string& text) {
  unsigned char buffer[16];
  return ::inet_pton(AF_INET, text.c_str(), buffer) == 1 || ::inet_pton(AF_INET6, text.c_str(), buffer) == 1;
}

// A list of strings at `key` of `object`; false (and `error` set) when it is not one.
bool read_strings(const Json& object, const char* key, const std::string& path, std::vector<std::string>& out,
                  std::string& error) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_array()) {
    error = path + ": Invalid value: must be a list of strings";
    return false;
  }
  for (const auto& item : *it) {
    if (!item.is_string()) {
      error = path + ": Invalid value: must be a list of strings";
      return false;
    }
    out.push_back(item.get<std::string>());
  }
  return true;
}

bool read_string(const Json& object, const char* key, const std::string& path, std::string& out, std::string& error) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_string()) {
    error = path + ": Invalid value: must be a string";
    return false;
  }
  out = it->get<std::string>();
  return true;
}

bool read_string_map(const Json& object, const char* key, const std::string& path,
                     std::map<std::string, std::string>& out, std::string& error) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return true;
  if (!it->is_object()) {
    error = path + ": Invalid value: must be a map of strings";
    return false;
  }
  for (const auto& [name, value] : it->items()) {
    if (!value.is_string()) {
      error = path + "." + name + ": Invalid value: must be a string";
      return false;
    }
    out[name] = value.get<std::string>();
  }
  return true;
}

// A Go duration field: true with `out` set, or false with the decoding error cert-manager's API gives.
bool read_duration(const Json& spec, const char* key, std::optional<std::chrono::seconds>& out, std::string& error) {
  std::string text;
  if (!read_string(spec, key, std::string("spec.") + key, text, error)) return false;
  if (!spec.contains(key) || spec[key].is_null()) return true;
  try {
    out = std::chrono::duration_cast<std::chrono::seconds>(parse_go_duration(text));
    return true;
  } catch (const std::invalid_argument& e) {  // Go's message: time: invalid duration "x"
    error = std::string("spec.") + key + ": Invalid value: " + go_quote(text) + ": " + e.what();
    return false;
  }
}

bool read_private_key(const Json& spec, PrivateKeySpec& key, std::string& error) {
  auto it = spec.find("privateKey");
  if (it == spec.end() || it->is_null()) return true;
  if (!it->is_object()) {
    error = "spec.privateKey: Invalid value: must be an object";
    return false;
  }
  std::string algorithm = "RSA", encoding = "PKCS1", rotation = "Always";
  if (!read_string(*it, "algorithm", "spec.privateKey.algorithm", algorithm, error) ||
      !read_string(*it, "encoding", "spec.privateKey.encoding", encoding, error) ||
      !read_string(*it, "rotationPolicy", "spec.privateKey.rotationPolicy", rotation, error)) {
    return false;
  }
  if (algorithm.empty() || algorithm == "RSA") {
    key.algorithm = KeyAlgorithm::RSA;
  } else if (algorithm == "ECDSA") {
    key.algorithm = KeyAlgorithm::ECDSA;
  } else if (algorithm == "Ed25519") {
    key.algorithm = KeyAlgorithm::Ed25519;
  } else {
    error = "spec.privateKey.algorithm: Unsupported value: " + go_quote(algorithm) +
            ": supported values: \"RSA\", \"ECDSA\", \"Ed25519\"";
    return false;
  }
  if (encoding.empty() || encoding == "PKCS1") {
    key.encoding = KeyEncoding::PKCS1;
  } else if (encoding == "PKCS8") {
    key.encoding = KeyEncoding::PKCS8;
  } else {
    error = "spec.privateKey.encoding: Unsupported value: " + go_quote(encoding) +
            ": supported values: \"PKCS1\", \"PKCS8\"";
    return false;
  }
  if (rotation != "Always" && rotation != "Never" && !rotation.empty()) {
    error = "spec.privateKey.rotationPolicy: Unsupported value: " + go_quote(rotation) +
            ": supported values: \"Always\", \"Never\"";
    return false;
  }
  key.rotate = rotation != "Never";
  std::int64_t size = 0;
  if (auto s = it->find("size"); s != it->end() && !s->is_null()) {
    if (!s->is_number_integer()) {
      error = "spec.privateKey.size: Invalid value: must be an integer";
      return false;
    }
    size = s->get<std::int64_t>();
  }
  switch (key.algorithm) {
    case KeyAlgorithm::RSA:
      if (size == 0) size = 2048;
      if (size < 2048 || size > 8192) {
        error = "spec.privateKey.size: Invalid value: " + std::to_string(size) +
                ": must be between 2048 & 8192 for rsa keyAlgorithm";
        return false;
      }
      break;
    case KeyAlgorithm::ECDSA:
      if (size == 0) size = 256;
      if (size != 256 && size != 384 && size != 521) {
        error = "spec.privateKey.size: Unsupported value: " + std::to_string(size) +
                ": supported values: \"256\", \"384\", \"521\"";
        return false;
      }
      break;
    case KeyAlgorithm::Ed25519: size = 0; break;
  }
  key.size = static_cast<int>(size);
  return true;
}

bool read_issuer_ref(const Json& spec, IssuerRef& ref, std::string& error) {
  auto it = spec.find("issuerRef");
  if (it == spec.end() || !it->is_object()) {
    error = "spec.issuerRef.name: Required value: must be specified";
    return false;
  }
  std::string kind, group;
  if (!read_string(*it, "name", "spec.issuerRef.name", ref.name, error) ||
      !read_string(*it, "kind", "spec.issuerRef.kind", kind, error) ||
      !read_string(*it, "group", "spec.issuerRef.group", group, error)) {
    return false;
  }
  if (ref.name.empty()) {
    error = "spec.issuerRef.name: Required value: must be specified";
    return false;
  }
  if (!kind.empty()) ref.kind = kind;
  if (!group.empty()) ref.group = group;
  return true;
}

// cert-manager's validation of what was read (its webhook's messages).
bool check(const CertificateSpec& spec, std::string& error) {
  if (spec.secret_name.empty()) {
    error = "spec.secretName: Required value: must be specified";
    return false;
  }
  if (spec.common_name.empty() && spec.dns_names.empty() && spec.ip_addresses.empty() && spec.uris.empty()) {
    error = "spec: Invalid value: \"\": at least one of commonName, dnsNames, uris or ipAddresses must be set";
    return false;
  }
  if (spec.common_name.size() > 64) {
    error = "spec.commonName: Too long: must have at most 64 bytes";
    return false;
  }
  for (std::size_t i = 0; i < spec.ip_addresses.size(); ++i) {
    if (!valid_ip(spec.ip_addresses[i])) {
      error = "spec.ipAddresses[" + std::to_string(i) + "]: Invalid value: " + go_quote(spec.ip_addresses[i]) +
              ": invalid IP address";
      return false;
    }
  }
  for (std::size_t i = 0; i < spec.dns_names.size(); ++i) {
    if (spec.dns_names[i].empty()) {
      error = "spec.dnsNames[" + std::to_string(i) + "]: Invalid value: \"\": must not be empty";
      return false;
    }
  }
  for (std::size_t i = 0; i < spec.usages.size(); ++i) {
    if (std::find(known_usages.begin(), known_usages.end(), spec.usages[i]) == known_usages.end()) {
      error = "spec.usages[" + std::to_string(i) + "]: Invalid value: " + go_quote(spec.usages[i]) +
              ": unknown keyusage";
      return false;
    }
  }
  if (spec.duration < 1h) {
    error = "spec.duration: Invalid value: " + go_quote(format_go_duration(spec.duration)) +
            ": certificate duration must be greater than 1h0m0s";
    return false;
  }
  if (spec.renew_before) {
    if (*spec.renew_before < 5min) {
      error = "spec.renewBefore: Invalid value: " + go_quote(format_go_duration(*spec.renew_before)) +
              ": certificate renewBefore must be greater than 5m0s";
      return false;
    }
    if (*spec.renew_before >= spec.duration) {
      error = "spec.renewBefore: Invalid value: " + go_quote(format_go_duration(*spec.renew_before)) +
              ": certificate duration " + format_go_duration(spec.duration) + " must be greater than renewBefore " +
              format_go_duration(*spec.renew_before);
      return false;
    }
  }
  return true;
}

}  // namespace

CertificateSpecResult read_certificate_spec(const Json& certificate) {
  CertificateSpecResult result;
  std::string& error = result.error;
  const Json* spec_node = nullptr;
  if (certificate.is_object()) {
    if (auto it = certificate.find("spec"); it != certificate.end() && it->is_object()) spec_node = &*it;
  }
  if (spec_node == nullptr) {
    error = "spec: Required value";
    return result;
  }
  const Json& spec = *spec_node;
  CertificateSpec out;
  if (!read_string(spec, "secretName", "spec.secretName", out.secret_name, error) ||
      !read_string(spec, "commonName", "spec.commonName", out.common_name, error) ||
      !read_strings(spec, "dnsNames", "spec.dnsNames", out.dns_names, error) ||
      !read_strings(spec, "ipAddresses", "spec.ipAddresses", out.ip_addresses, error) ||
      !read_strings(spec, "uris", "spec.uris", out.uris, error) ||
      !read_strings(spec, "usages", "spec.usages", out.usages, error) ||
      !read_private_key(spec, out.private_key, error) || !read_issuer_ref(spec, out.issuer_ref, error)) {
    return result;
  }
  if (auto subject = spec.find("subject"); subject != spec.end() && subject->is_object()) {
    if (!read_strings(*subject, "organizations", "spec.subject.organizations", out.organizations, error) ||
        !read_strings(*subject, "organizationalUnits", "spec.subject.organizationalUnits", out.organizational_units,
                      error)) {
      return result;
    }
  }
  if (auto is_ca = spec.find("isCA"); is_ca != spec.end() && !is_ca->is_null()) {
    if (!is_ca->is_boolean()) {
      error = "spec.isCA: Invalid value: must be a boolean";
      return result;
    }
    out.is_ca = is_ca->get<bool>();
  }
  std::optional<std::chrono::seconds> duration;
  if (!read_duration(spec, "duration", duration, error) ||
      !read_duration(spec, "renewBefore", out.renew_before, error)) {
    return result;
  }
  if (duration) out.duration = *duration;
  if (auto tmpl = spec.find("secretTemplate"); tmpl != spec.end() && tmpl->is_object()) {
    if (!read_string_map(*tmpl, "labels", "spec.secretTemplate.labels", out.secret_labels, error) ||
        !read_string_map(*tmpl, "annotations", "spec.secretTemplate.annotations", out.secret_annotations, error)) {
      return result;
    }
  }
  if (out.usages.empty()) out.usages = {"digital signature", "key encipherment"};
  if (!check(out, error)) return result;
  result.spec = std::move(out);
  return result;
}

}  // namespace rr::cert_manager
