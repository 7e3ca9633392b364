#include "image/sha256.hpp"

#include <openssl/evp.h>

#include <array>
#include <stdexcept>

namespace rrgen::image {

std::string sha256_hex(std::string_view data) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> md{};
  unsigned int length = 0;
  // EVP_Digest is libcrypto's one-shot; it fails only when the library cannot allocate.
  if (EVP_Digest(data.data(), data.size(), md.data(), &length, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("libcrypto: SHA-256 failed");
  static constexpr char kHex[] = "0123456789abcdef";
  std::string hex;
  hex.reserve(2 * length);
  for (unsigned int i = 0; i < length; ++i) {
    hex += kHex[md[i] >> 4];
    hex += kHex[md[i] & 0xf];
  }
  return hex;
}

std::string oci_digest(std::string_view data) { return "sha256:" + sha256_hex(data); }

}  // namespace rrgen::image
