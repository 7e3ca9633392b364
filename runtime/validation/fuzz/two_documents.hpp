// The input of the validation fuzz targets: a new document (JSON), a newline, and an old one
// (an empty object when there is no newline). Inputs above 16 KiB or that do not parse are skipped.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>

#include "rr/core/json.hpp"

namespace rr::validation::fuzz {

inline std::optional<std::pair<rr::Json, rr::Json>> two_documents(const std::uint8_t* data, std::size_t size) {
  if (size > 16384) return std::nullopt;
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto newline = input.find('\n');
  rr::Json now = rr::Json::parse(input.substr(0, newline), nullptr, /*allow_exceptions=*/false);
  rr::Json old = newline == std::string_view::npos
                     ? rr::Json::object()
                     : rr::Json::parse(input.substr(newline + 1), nullptr, /*allow_exceptions=*/false);
  if (now.is_discarded() || old.is_discarded()) return std::nullopt;
  return std::pair{std::move(now), std::move(old)};
}

}  // namespace rr::validation::fuzz
