// A POSIX tar archive (ustar, with a pax extended header for what ustar cannot hold), written for
// reproducibility: the caller gives every field that varies (mode, mtime), owners are always root
// (uid/gid 0), and entries are written in the order given (image layers sort them first).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace rrgen::image {

enum class TarType : char { File = '0', Directory = '5', Symlink = '2' };

struct TarEntry {
  std::string path;  // without a leading '/'; directories without a trailing one ("etc/ssl")
  TarType type = TarType::File;
  std::uint32_t mode = 0644;  // permission bits, sticky included (/tmp: 01777)
  std::string content;        // files
  std::string link_target;    // symlinks
};

class TarWriter {
 public:
  explicit TarWriter(std::int64_t mtime) : mtime_(mtime) {}
  void add(const TarEntry& entry);
  // The archive: the entries, then two zero blocks.
  std::string finish();

 private:
  void header(std::string_view name, char type, std::uint32_t mode, std::uint64_t size, std::string_view link);
  std::int64_t mtime_;
  std::string out_;
};

// The path split into ustar's prefix (<= 155) and name (<= 100) at a '/'; false when it cannot be.
bool split_ustar_path(std::string_view path, std::string& prefix, std::string& name);

}  // namespace rrgen::image
