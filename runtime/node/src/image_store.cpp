#include "rr/node/image_store.hpp"

#include <unistd.h>

#include <algorithm>
#include <system_error>

#include "unpack.hpp"

namespace rr::node {

namespace fs = std::filesystem;

ImageStore::ImageStore(std::vector<fs::path> image_dirs, fs::path cache_dir) : cache_dir_(std::move(cache_dir)) {
  for (const fs::path& dir : image_dirs) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) throw LayoutError(dir.string() + ": not a directory");
    if (fs::exists(dir / "oci-layout", ec)) {
      layouts_.push_back(std::make_shared<OciLayout>(OciLayout::open(dir)));
      continue;
    }
    std::vector<fs::path> children;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      if (entry.is_directory() && fs::exists(entry.path() / "oci-layout")) children.push_back(entry.path());
    }
    if (children.empty()) throw LayoutError(dir.string() + ": no oci-layout in it or its subdirectories");
    std::sort(children.begin(), children.end());
    for (const fs::path& child : children) layouts_.push_back(std::make_shared<OciLayout>(OciLayout::open(child)));
  }
}

bool ImageStore::holds_repository(const std::string& image) const {
  ImageReference ref;
  try {
    ref = parse_image_reference(image);
  } catch (const std::invalid_argument&) {
    return false;
  }
  for (const auto& layout : layouts_) {
    for (const LayoutRef& r : layout->refs()) {
      if (r.reference.repository == ref.repository) return true;
    }
  }
  return false;
}

Lookup ImageStore::lookup(const std::string& image, ResolvedImage* found, std::string* error) const {
  ImageReference ref;
  try {
    ref = parse_image_reference(image);
  } catch (const std::invalid_argument& e) {
    if (error) *error = "couldn't parse image name \"" + image + "\": " + e.what();
    return Lookup::UnknownRepository;
  }
  bool repository = false;
  for (const auto& layout : layouts_) {
    for (const LayoutRef& r : layout->refs()) {
      if (r.reference.repository != ref.repository) continue;
      repository = true;
      const bool match = ref.digest.empty() ? r.reference.tag == ref.tag : r.manifest.digest == ref.digest;
      if (!match) continue;
      if (found) {
        found->reference = ref;
        found->manifest = layout->manifest(r.manifest);
        found->layout = layout;
      }
      return Lookup::Found;
    }
  }
  if (!repository) return Lookup::UnknownRepository;
  if (error) {
    // containerd's pull error as the kubelet passes it on (ErrImagePull's message).
    const std::string name = ref.str();
    *error = "rpc error: code = NotFound desc = failed to pull and unpack image \"" + name +
             "\": failed to resolve reference \"" + name + "\": " + name + ": not found";
  }
  return Lookup::NotFound;
}

fs::path ImageStore::rootfs(const ResolvedImage& image) {
  const std::string hex = image.manifest.descriptor.digest.substr(7);
  const fs::path done = cache_dir_ / hex / "rootfs";
  std::lock_guard lock(unpack_mutex_);
  std::error_code ec;
  if (fs::is_directory(done, ec)) return done;
  fs::create_directories(cache_dir_ / hex);
  const fs::path partial = cache_dir_ / hex / "rootfs.partial";
  fs::remove_all(partial, ec);
  fs::create_directories(partial);
  try {
    for (const Descriptor& layer : image.manifest.layers) {
      const std::string bytes = image.layout->read_blob(layer);
      node_detail::apply_layer(bytes, partial, (image.layout->dir() / "blobs/sha256" / layer.digest.substr(7)).string(),
                               geteuid() == 0);
    }
  } catch (...) {
    fs::remove_all(partial, ec);
    throw;
  }
  fs::rename(partial, done);
  return done;
}

}  // namespace rr::node
