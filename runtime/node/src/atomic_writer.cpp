#include "atomic_writer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <ctime>
#include <random>
#include <set>
#include <stdexcept>

namespace rr::node_detail {

namespace fs = std::filesystem;

// A payload path as the API's validation allows it: relative, no `..` element, not starting with `..`.
void check_payload_path(const std::string& path) {
  if (path.empty() || path[0] == '/' || path.rfind("..", 0) == 0)
    throw std::runtime_error("invalid path \"" + path + "\"");
  std::size_t b = 0;
  for (;;) {
    const std::size_t e = path.find('/', b);
    const std::string part = path.substr(b, e == std::string::npos ? std::string::npos : e - b);
    if (part == ".." || part.empty()) throw std::runtime_error("invalid path \"" + path + "\"");
    if (e == std::string::npos) break;
    b = e + 1;
  }
}

namespace {

void write_file(const fs::path& path, const std::string& data, int mode) {
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY | O_CLOEXEC | O_NOFOLLOW, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + path.string());
  std::size_t done = 0;
  while (done < data.size()) {
    const ssize_t n = ::write(fd, data.data() + done, data.size() - done);
    if (n <= 0) {
      ::close(fd);
      throw std::runtime_error("cannot write " + path.string());
    }
    done += static_cast<std::size_t>(n);
  }
  ::fchmod(fd, static_cast<mode_t>(mode));  // not the umask's: items[].mode as given
  ::close(fd);
}

std::string timestamp_dir() {
  const auto now = std::chrono::system_clock::now();
  const std::time_t t = std::chrono::system_clock::to_time_t(now);
  std::tm tm{};
  gmtime_r(&t, &tm);
  char buffer[64];
  std::strftime(buffer, sizeof buffer, "..%Y_%m_%d_%H_%M_%S.", &tm);
  static std::mt19937 random{std::random_device{}()};
  return buffer + std::to_string(random() % 1000000000);
}

}  // namespace

void write_atomically(const fs::path& dir, const VolumePayload& payload) {
  for (const auto& [path, file] : payload) check_payload_path(path);
  fs::create_directories(dir);
  const fs::path data_link = dir / "..data";
  std::error_code ec;
  const fs::path old = fs::is_symlink(data_link, ec) ? dir / fs::read_symlink(data_link, ec) : fs::path();
  const std::string stamp = timestamp_dir();
  const fs::path fresh = dir / stamp;
  fs::create_directory(fresh);
  ::chmod(fresh.c_str(), 0755);
  std::set<std::string> tops;
  try {
    for (const auto& [path, file] : payload) {
      const fs::path target = fresh / path;
      fs::create_directories(target.parent_path());
      write_file(target, file.data, file.mode);
      tops.insert(path.substr(0, path.find('/')));
    }
  } catch (...) {
    fs::remove_all(fresh, ec);  // ..data still names the last complete payload
    throw;
  }
  const fs::path tmp = dir / "..data_tmp";
  fs::remove(tmp, ec);
  fs::create_symlink(stamp, tmp);
  fs::rename(tmp, data_link);
  for (const std::string& top : tops) {
    if (!fs::is_symlink(dir / top, ec)) fs::create_symlink(fs::path("..data") / top, dir / top);
  }
  // What the previous payload had and this one has not.
  for (const auto& entry : fs::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("..", 0) == 0 || tops.count(name)) continue;
    if (fs::is_symlink(entry.path(), ec)) fs::remove(entry.path(), ec);
  }
  if (!old.empty() && old != fresh) fs::remove_all(old, ec);
}
}  // namespace rr::node_detail
