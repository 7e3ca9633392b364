// Builds OCI layouts in the unit tests: tar archives of given entries, gzip, blobs named by their
// sha256, index.json and oci-layout.
#pragma once
#include <zlib.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "rr/core/json.hpp"
#include "tar_reader.hpp"

namespace node_test {

struct Entry {
  std::string path;
  char type = '0';   // '0' file, '5' dir, '2' symlink, '1' hard link, '3' char device
  std::string data;  // contents, or the link target
  unsigned mode = 0644;
};

inline std::string tar(const std::vector<Entry>& entries) {
  std::string out;
  for (const Entry& e : entries) {
    std::string h(512, '\0');
    h.replace(0, std::min<std::size_t>(e.path.size(), 100), e.path.substr(0, 100));
    std::snprintf(h.data() + 100, 8, "%07o", e.mode);
    std::snprintf(h.data() + 108, 8, "%07o", 0u);
    std::snprintf(h.data() + 116, 8, "%07o", 0u);
    const std::size_t size = e.type == '0' ? e.data.size() : 0;
    std::snprintf(h.data() + 124, 12, "%011zo", size);
    std::snprintf(h.data() + 136, 12, "%011o", 0u);
    h[156] = e.type;
    if (e.type == '1' || e.type == '2')
      h.replace(157, std::min<std::size_t>(e.data.size(), 100), e.data.substr(0, 100));
    h.replace(257, 6, std::string("ustar\0", 6));
    h.replace(263, 2, "00");
    std::memset(h.data() + 148, ' ', 8);
    unsigned sum = 0;
    for (unsigned char c : h) sum += c;
    std::snprintf(h.data() + 148, 8, "%06o", sum);
    h[155] = ' ';
    out += h;
    if (size) {
      out += e.data;
      out.append((512 - size % 512) % 512, '\0');
    }
  }
  out.append(1024, '\0');
  return out;
}

inline std::string gzip(const std::string& in) {
  z_stream z{};
  if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    throw std::runtime_error("deflateInit2");
  }
  std::string out(deflateBound(&z, in.size()) + 64, '\0');
  z.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  z.avail_in = static_cast<uInt>(in.size());
  z.next_out = reinterpret_cast<Bytef*>(out.data());
  z.avail_out = static_cast<uInt>(out.size());
  deflate(&z, Z_FINISH);
  out.resize(z.total_out);
  deflateEnd(&z);
  return out;
}

class LayoutBuilder {
 public:
  explicit LayoutBuilder(std::filesystem::path dir) : dir_(std::move(dir)) {
    std::filesystem::create_directories(dir_ / "blobs" / "sha256");
    write(dir_ / "oci-layout", R"({"imageLayoutVersion":"1.0.0"})");
  }

  // Writes a blob; returns its descriptor.
  rr::Json blob(const std::string& bytes, const std::string& media_type) {
    const std::string digest = rr::node_detail::sha256_digest(bytes);
    write(dir_ / "blobs" / "sha256" / digest.substr(7), bytes);
    return {{"mediaType", media_type}, {"digest", digest}, {"size", bytes.size()}};
  }

  // An image of the layers with a config; returns the manifest's descriptor.
  rr::Json image(const std::vector<std::string>& layers, const rr::Json& config) {
    rr::Json manifest = {
        {"schemaVersion", 2},
        {"mediaType", "application/vnd.oci.image.manifest.v1+json"},
        {"config", blob(rr::Json{{"architecture", "amd64"}, {"os", "linux"}, {"config", config}}.dump(),
                        "application/vnd.oci.image.config.v1+json")},
        {"layers", rr::Json::array()}};
    for (const auto& l : layers) manifest["layers"].push_back(blob(l, "application/vnd.oci.image.layer.v1.tar+gzip"));
    return blob(manifest.dump(), "application/vnd.oci.image.manifest.v1+json");
  }

  void index(const rr::Json& manifests) {
    write(dir_ / "index.json", rr::Json{{"schemaVersion", 2}, {"manifests", manifests}}.dump());
  }

  static rr::Json named(rr::Json descriptor, const std::string& annotation, const std::string& name) {
    descriptor["annotations"][annotation] = name;
    return descriptor;
  }

  static void write(const std::filesystem::path& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
  }

 private:
  std::filesystem::path dir_;
};

}  // namespace node_test
