// An OCI image layout (image-spec's image-layout.md) of one image with one layer: `oci-layout`,
// `index.json` naming the manifest by its tag (org.opencontainers.image.ref.name) and its full
// name (io.containerd.image.name), and
// blobs/sha256/<hex> for the layer, the config and the manifest. Built in memory; written as a
// whole (all-or-nothing).
#pragma once
#include <string>
#include <vector>

#include "image/image_ref.hpp"
#include "support/diagnostics.hpp"

namespace rrgen::image {

inline constexpr const char* kManifestMediaType = "application/vnd.oci.image.manifest.v1+json";
inline constexpr const char* kConfigMediaType = "application/vnd.oci.image.config.v1+json";
inline constexpr const char* kLayerMediaType = "application/vnd.oci.image.layer.v1.tar+gzip";

struct LayoutFile {
  std::string path;  // relative to the layout's directory
  std::string content;
};

struct OciLayout {
  std::vector<LayoutFile> files;
  std::string manifest_digest;  // "sha256:..."
};

// The layout of `config_json` and the gzip-compressed `layer`, named `ref`.
OciLayout oci_layout(const std::string& config_json, const std::string& layer_gz, const ImageRef& ref);

// Writes `files` as the directory `dir`, replacing what was there: everything is written into a
// hidden directory beside `dir` and renamed into place, so `dir` is either the old or the new
// layout, never a mix. An existing `dir` must be empty or a layout (it has `oci-layout`): any
// other directory is left alone and reported. Reports and returns false when it cannot.
bool replace_directory(const std::vector<LayoutFile>& files, const std::string& dir, Diagnostics& diags);

}  // namespace rrgen::image
