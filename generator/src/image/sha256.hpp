// SHA-256 digests as OCI writes them ("sha256:<64 hex>"), from OpenSSL's libcrypto.
#pragma once
#include <string>
#include <string_view>

namespace rrgen::image {

// The lower-case hex SHA-256 of `data` (64 characters).
std::string sha256_hex(std::string_view data);
// "sha256:" + sha256_hex(data): an OCI content digest.
std::string oci_digest(std::string_view data);

}  // namespace rrgen::image
