// The node's images: every OCI layout under the directories it is given (a directory holding
// `oci-layout` is one layout; otherwise each subdirectory that holds one is a layout whose name is
// its repository's default), looked up by reference as the kubelet pulls, and each manifest's
// rootfs unpacked once into <cache>/<manifest hex>/rootfs (written beside and renamed into place,
// so a crash leaves no half rootfs).
#pragma once
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "rr/node/oci_layout.hpp"

namespace rr::node {

struct ResolvedImage {
  ImageReference reference;  // as the container asked (normalised)
  ImageManifest manifest;
  std::shared_ptr<const OciLayout> layout;
  // "docker.io/library/app@sha256:<manifest digest>": the kubelet's imageID.
  std::string image_id() const { return reference.repository + "@" + manifest.descriptor.digest; }
};

enum class Lookup {
  Found,
  UnknownRepository,  // no layout holds the repository: not this node's image
  NotFound,           // a layout holds the repository but not the tag or digest (ErrImagePull)
};

class ImageStore {
 public:
  // Reads every layout now; throws LayoutError naming the first bad file.
  ImageStore(std::vector<std::filesystem::path> image_dirs, std::filesystem::path cache_dir);

  // How `image` (a container's `image` field) looks up; `error` gets the pull error text.
  Lookup lookup(const std::string& image, ResolvedImage* found = nullptr, std::string* error = nullptr) const;
  // Whether some layout holds the repository of `image` (false for an invalid reference).
  bool holds_repository(const std::string& image) const;
  // The unpacked rootfs of `image`, unpacking it on first use (thread-safe). Throws on bad layers.
  std::filesystem::path rootfs(const ResolvedImage& image);

  const std::vector<std::shared_ptr<const OciLayout>>& layouts() const { return layouts_; }

 private:
  std::vector<std::shared_ptr<const OciLayout>> layouts_;
  std::filesystem::path cache_dir_;
  std::mutex unpack_mutex_;
};

}  // namespace rr::node
