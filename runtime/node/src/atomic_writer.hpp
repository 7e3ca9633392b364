// The kubelet's AtomicWriter: a volume's files are replaced all at once, so a reader never sees
// half of an update. The files live in a fresh `..<timestamp>` directory, `..data` points at it
// (swapped by a rename), and each top-level name is a symlink `<top>` -> `..data/<top>`.
#pragma once
#include <filesystem>
#include <map>
#include <string>

namespace rr::node_detail {

// One file of a volume's payload.
struct VolumeFile {
  std::string data;
  int mode = 0644;
  bool operator==(const VolumeFile&) const = default;
};
using VolumePayload = std::map<std::string, VolumeFile>;  // relative path -> file

// A payload path as the API's validation allows it: relative, no `..` element, not starting with
// `..`; std::runtime_error (`invalid path "../x"`) otherwise.
void check_payload_path(const std::string& path);

// Writes `payload` into `dir`; the previous directory and stale links go. Throws
// std::runtime_error on an invalid path or a failed write, leaving the last payload in place.
void write_atomically(const std::filesystem::path& dir, const VolumePayload& payload);

}  // namespace rr::node_detail
