// The opaque `continue` of a paginated list: where the previous page ended and at which
// resourceVersion the list started (base64 of a small JSON document, as the API server's).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "rr/client/object_key.hpp"

namespace rr::cluster_detail {

struct ContinueToken {
  std::uint64_t resource_version = 0;
  ObjectKey last;  // the last key of the previous page; the next page starts after it

  std::string encode() const;
  // nullopt when the text is not a token this server issued.
  static std::optional<ContinueToken> decode(std::string_view text);
};

}  // namespace rr::cluster_detail
