#include "image/oci_layout.hpp"

#include <stdlib.h>

#include <cerrno>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <optional>

#include "image/sha256.hpp"

namespace rrgen::image {
namespace {

namespace fs = std::filesystem;

nlohmann::json descriptor(const char* media_type, const std::string& content) {
  return {{"mediaType", media_type}, {"digest", oci_digest(content)}, {"size", content.size()}};
}

std::string blob_path(const std::string& content) { return "blobs/sha256/" + sha256_hex(content); }

}  // namespace

OciLayout oci_layout(const std::string& config_json, const std::string& layer_gz, const ImageRef& ref) {
  const nlohmann::json manifest_json = {
      {"schemaVersion", 2},
      {"mediaType", kManifestMediaType},
      {"config", descriptor(kConfigMediaType, config_json)},
      {"layers", {descriptor(kLayerMediaType, layer_gz)}},
  };
  const std::string manifest = manifest_json.dump();
  nlohmann::json entry = descriptor(kManifestMediaType, manifest);
  // The tag for skopeo and umoci (oci:DIR:TAG); the full name for containerd's importer and the
  // local cluster's node agent, which then knows the repository without the directory's name.
  entry["annotations"] = {{"io.containerd.image.name", ref.full_name()},
                          {"org.opencontainers.image.ref.name", ref.tag}};
  const nlohmann::json index = {
      {"schemaVersion", 2},
      {"mediaType", "application/vnd.oci.image.index.v1+json"},
      {"manifests", {entry}},
  };
  OciLayout layout;
  layout.manifest_digest = oci_digest(manifest);
  layout.files = {
      {"oci-layout", R"({"imageLayoutVersion":"1.0.0"})"},
      {"index.json", index.dump()},
      {blob_path(layer_gz), layer_gz},
      {blob_path(config_json), config_json},
      {blob_path(manifest), manifest},
  };
  return layout;
}

bool replace_directory(const std::vector<LayoutFile>& files, const std::string& dir, Diagnostics& diags) {
  auto failed = [&](const std::string& what, const std::error_code& ec) {
    diags.error({}, "image-write", what + (ec ? ": " + ec.message() : ""));
    return false;
  };
  std::error_code ec;
  fs::path target = fs::absolute(dir, ec).lexically_normal();
  if (ec) return failed("cannot find '" + dir + "'", ec);
  if (!target.has_filename()) target = target.parent_path();  // "dir/"
  if (fs::exists(target, ec) && !fs::is_directory(target, ec))
    return failed("'" + dir + "' exists and is not a directory", ec);
  // Only a layout (or nothing) is replaced: `--out .` or `--out ~` must not move a tree aside.
  if (fs::is_directory(target, ec) && !fs::is_empty(target, ec) && !fs::is_regular_file(target / "oci-layout", ec))
    return failed("'" + dir + "' is a directory that holds no image layout (no oci-layout file); not replacing it", {});
  fs::create_directories(target.parent_path(), ec);
  if (ec) return failed("cannot create '" + target.parent_path().string() + "'", ec);

  auto hidden = [&](const char* what) {
    std::string name = (target.parent_path() / ("." + target.filename().string() + what + "XXXXXX")).string();
    return ::mkdtemp(name.data()) ? std::optional<fs::path>(name) : std::nullopt;
  };
  const auto staging = hidden(".rrgen-new-");
  if (!staging)
    return failed("cannot create a directory beside '" + dir + "'", std::error_code(errno, std::generic_category()));
  bool ok = true;
  for (const auto& f : files) {
    const fs::path path = *staging / f.path;
    fs::create_directories(path.parent_path(), ec);
    std::ofstream out(path, std::ios::binary);
    out.write(f.content.data(), static_cast<std::streamsize>(f.content.size()));
    out.close();
    if (ec || !out) {
      ok = failed("cannot write '" + path.string() + "'", ec);
      break;
    }
  }
  // The permissions a new directory gets (mkdtemp makes it 0700).
  if (ok)
    fs::permissions(*staging,
                    fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec | fs::perms::others_read |
                        fs::perms::others_exec,
                    ec);
  std::optional<fs::path> old;
  if (ok && fs::exists(target, ec)) {
    old = hidden(".rrgen-old-");
    if (old) fs::rename(target, *old, ec);  // rename() onto a non-empty directory fails: move it aside first
    if (!old || ec) ok = failed("cannot move the old '" + dir + "' aside", ec);
  }
  if (ok) {
    fs::rename(*staging, target, ec);
    if (ec) {
      ok = failed("cannot rename '" + staging->string() + "' to '" + target.string() + "'", ec);
      if (old) fs::rename(*old, target, ec);  // put the old one back
      old.reset();
    }
  }
  std::error_code ignored;
  if (!ok) fs::remove_all(*staging, ignored);
  if (old) fs::remove_all(*old, ignored);
  return ok;
}

}  // namespace rrgen::image
