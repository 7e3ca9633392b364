// OCI image layouts (image-spec's image-layout.md) as the node agent's image store: the
// `oci-layout` marker, index.json (nested indexes walked, a multi-platform index narrowed to
// linux/amd64), manifests, configs and layers, every blob checked against its digest and size.
// A missing or corrupt file is a LayoutError that names it.
#pragma once
#include <cstdint>
#include <filesystem>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "rr/node/image_reference.hpp"

namespace rr::node {

struct LayoutError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Descriptor {
  std::string media_type;
  std::string digest;  // "sha256:<hex>"
  std::int64_t size = 0;
  std::map<std::string, std::string> annotations;
};

// What a container takes from the image's config (config.config of image-spec).
struct ImageConfig {
  std::vector<std::string> entrypoint, cmd, env;
  std::string user, working_dir;
};

struct ImageManifest {
  Descriptor descriptor;  // the manifest's own (its digest keys the unpacked rootfs)
  Descriptor config_descriptor;
  std::vector<Descriptor> layers;
  ImageConfig config;
};

// One reference a layout names: its ref.name / io.containerd.image.name, resolved.
struct LayoutRef {
  ImageReference reference;
  Descriptor manifest;
};

class OciLayout {
 public:
  // Reads `dir`/oci-layout and `dir`/index.json. A ref.name that is only a tag ("v1") names
  // `<default_repository>:<tag>`; default_repository is the directory's name when empty.
  static OciLayout open(const std::filesystem::path& dir, std::string default_repository = {});

  const std::filesystem::path& dir() const { return dir_; }
  const std::vector<LayoutRef>& refs() const { return refs_; }
  // A blob's bytes, verified against `d`'s digest and size.
  std::string read_blob(const Descriptor& d) const;
  ImageManifest manifest(const Descriptor& d) const;

 private:
  std::filesystem::path dir_;
  std::vector<LayoutRef> refs_;
};

// Parsers of the layout's JSON documents (pure; fuzzed). `what` names the file in errors.
Descriptor parse_descriptor(const std::string& json_text, std::string_view what);
std::vector<Descriptor> parse_index(std::string_view json_text, std::string_view what);
ImageManifest parse_manifest(std::string_view json_text, std::string_view what);
ImageConfig parse_image_config(std::string_view json_text, std::string_view what);

}  // namespace rr::node
