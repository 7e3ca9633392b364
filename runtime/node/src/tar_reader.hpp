// A layer's bytes as a list of tar entries: gzip (zlib) undone first when the bytes start with
// its magic, then ustar, PAX ('x', 'g') and GNU long names ('L', 'K'). Pure parsing over outside
// input (fuzzed): a malformed archive is a std::runtime_error, never a read past the buffer.
#pragma once
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

namespace rr::node_detail {

enum class TarType { File, Directory, Symlink, Hardlink, Other };

struct TarEntry {
  std::string path;      // as written ("./usr/bin/x", "etc/")
  std::string linkname;  // symlink target or hard link source
  TarType type = TarType::Other;
  std::uint32_t mode = 0;
  std::uint32_t uid = 0, gid = 0;
  std::string_view data;  // a File's contents (valid during the callback)
};

// Undoes gzip when `bytes` start with its magic (1f 8b), else returns them as they are. Refuses
// output over `limit` bytes.
std::string maybe_gunzip(std::string_view bytes, std::size_t limit = std::size_t{8} << 30);

// Calls `on_entry` for each entry in order; stops at the end-of-archive blocks.
void read_tar(std::string_view archive, const std::function<void(const TarEntry&)>& on_entry);

// The sha256 of `bytes` as "sha256:<hex>" (OpenSSL libcrypto).
std::string sha256_digest(std::string_view bytes);

}  // namespace rr::node_detail
