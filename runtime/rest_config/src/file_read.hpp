// Whole-file reads that report failures as ConfigError naming the file and its purpose.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rr::config_detail {

// The file's bytes, or nullopt when it cannot be opened (missing, a directory, no permission).
std::optional<std::string> try_read_file(const std::string& path);

// The file's bytes; throws ConfigError "<context>: cannot read <what> <path>" otherwise.
std::string read_file_or_throw(const std::string& path, std::string_view what, std::string_view context);

// `path` as is when absolute or empty, else joined to `base_dir` (when base_dir is non-empty).
std::string resolve_against(const std::string& path, const std::string& base_dir);

}  // namespace rr::config_detail
