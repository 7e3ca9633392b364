#include "unpack.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "tar_reader.hpp"

namespace rr::node_detail {

namespace {

namespace fs = std::filesystem;

// The entry's path as components, or nullopt when it would leave the root.
std::optional<std::vector<std::string>> components(std::string_view path) {
  std::vector<std::string> out;
  std::size_t begin = 0;
  while (begin <= path.size()) {
    std::size_t end = path.find('/', begin);
    if (end == std::string_view::npos) end = path.size();
    const std::string_view c = path.substr(begin, end - begin);
    if (c == "..") return std::nullopt;
    if (!c.empty() && c != ".") out.emplace_back(c);
    begin = end + 1;
  }
  return out;
}

[[noreturn]] void fail(std::string_view what, const std::string& why) {
  throw std::runtime_error(std::string(what) + ": " + why);
}

// The host path of `parts` under root, making missing parent directories; refuses a parent that
// is a symlink (or not a directory), so nothing is written outside the root.
fs::path safe_parent(const fs::path& root, const std::vector<std::string>& parts, std::string_view what,
                     const std::string& entry) {
  fs::path at = root;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    at /= parts[i];
    struct stat st {};
    if (lstat(at.c_str(), &st) != 0) {
      if (mkdir(at.c_str(), 0755) != 0)
        fail(what, "cannot create directory for \"" + entry + "\": " + std::strerror(errno));
      continue;
    }
    if (S_ISLNK(st.st_mode)) fail(what, "entry \"" + entry + "\" goes through a symlink");
    if (!S_ISDIR(st.st_mode)) fail(what, "entry \"" + entry + "\" goes through a file");
  }
  return at;
}

void remove_existing(const fs::path& path, bool keep_directory) {
  struct stat st {};
  if (lstat(path.c_str(), &st) != 0) return;
  if (keep_directory && S_ISDIR(st.st_mode)) return;
  std::error_code ec;
  fs::remove_all(path, ec);
}

}  // namespace

void apply_layer(std::string_view layer_bytes, const fs::path& root, std::string_view what, bool chown) {
  std::string archive;
  std::set<std::string> made;  // paths this layer wrote: an opaque whiteout keeps them
  std::vector<std::pair<fs::path, std::uint32_t>> directory_modes;  // applied last (a 0555 dir still gets its files)
  try {
    archive = maybe_gunzip(layer_bytes);
    read_tar(archive, [&](const TarEntry& e) {
      auto parts = components(e.path);
      if (!parts) fail(what, "entry \"" + e.path + "\" leaves the image root");
      if (parts->empty()) return;  // "./" itself
      const std::string base = parts->back();
      const fs::path parent = safe_parent(root, *parts, what, e.path);
      if (base == ".wh..wh..opq") {
        std::string prefix;
        for (std::size_t i = 0; i + 1 < parts->size(); ++i) prefix += "/" + (*parts)[i];
        std::error_code ec;
        for (const auto& child : fs::directory_iterator(parent, ec)) {
          if (!made.contains(prefix + "/" + child.path().filename().string())) fs::remove_all(child.path(), ec);
        }
        return;
      }
      if (base.rfind(".wh.", 0) == 0) {
        remove_existing(parent / base.substr(4), false);
        return;
      }
      const fs::path target = parent / base;
      std::string key;
      for (const auto& p : *parts) key += "/" + p;
      made.insert(key);
      switch (e.type) {
        case TarType::Directory: {
          remove_existing(target, true);
          if (mkdir(target.c_str(), 0755) != 0 && errno != EEXIST) {
            fail(what, "cannot create \"" + e.path + "\": " + std::strerror(errno));
          }
          directory_modes.emplace_back(target, e.mode);
          break;
        }
        case TarType::File: {
          remove_existing(target, false);
          const int fd = ::open(target.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
          if (fd < 0) fail(what, "cannot create \"" + e.path + "\": " + std::strerror(errno));
          std::size_t written = 0;
          while (written < e.data.size()) {
            const ssize_t n = ::write(fd, e.data.data() + written, e.data.size() - written);
            if (n <= 0) {
              ::close(fd);
              fail(what, "cannot write \"" + e.path + "\": " + std::strerror(errno));
            }
            written += static_cast<std::size_t>(n);
          }
          if (chown) (void)::fchown(fd, e.uid, e.gid);
          (void)::fchmod(fd, e.mode);
          ::close(fd);
          break;
        }
        case TarType::Symlink: {
          remove_existing(target, false);
          if (::symlink(e.linkname.c_str(), target.c_str()) != 0) {
            fail(what, "cannot create symlink \"" + e.path + "\": " + std::strerror(errno));
          }
          if (chown) (void)::lchown(target.c_str(), e.uid, e.gid);
          break;
        }
        case TarType::Hardlink: {
          auto source = components(e.linkname);
          if (!source || source->empty()) fail(what, "hard link \"" + e.path + "\" points outside the image root");
          const fs::path from = safe_parent(root, *source, what, e.linkname) / source->back();
          struct stat st {};
          if (lstat(from.c_str(), &st) != 0 || S_ISDIR(st.st_mode)) {
            fail(what, "hard link \"" + e.path + "\" to missing \"" + e.linkname + "\"");
          }
          remove_existing(target, false);
          if (::link(from.c_str(), target.c_str()) != 0) {
            fail(what, "cannot link \"" + e.path + "\": " + std::strerror(errno));
          }
          break;
        }
        case TarType::Other: break;  // devices and FIFOs: a container gets its own /dev
      }
    });
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    if (message.rfind(std::string(what), 0) == 0) throw;
    fail(what, message);
  }
  for (auto it = directory_modes.rbegin(); it != directory_modes.rend(); ++it) {
    (void)::chmod(it->first.c_str(), it->second);
  }
}

}  // namespace rr::node_detail
