#include "file_read.hpp"

#include <filesystem>
#include <fstream>
#include <iterator>
#include <system_error>

#include "rr/rest_config/rest_config.hpp"

namespace rr::config_detail {

std::optional<std::string> try_read_file(const std::string& path) {
  std::error_code ec;
  // ifstream opens a directory successfully on Linux and then fails to read; reject it first.
  if (!std::filesystem::is_regular_file(path, ec)) return std::nullopt;
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::string bytes{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  if (in.bad()) return std::nullopt;
  return bytes;
}

std::string read_file_or_throw(const std::string& path, std::string_view what, std::string_view context) {
  if (auto bytes = try_read_file(path)) return std::move(*bytes);
  throw ConfigError(std::string(context) + ": cannot read " + std::string(what) + " " + path);
}

std::string resolve_against(const std::string& path, const std::string& base_dir) {
  if (path.empty() || base_dir.empty()) return path;
  const std::filesystem::path p(path);
  if (p.is_absolute()) return path;
  return (std::filesystem::path(base_dir) / p).lexically_normal().string();
}

}  // namespace rr::config_detail
