#include "rr/node/oci_layout.hpp"

#include <fstream>
#include <functional>
#include <sstream>

#include "rr/core/json.hpp"
#include "tar_reader.hpp"

namespace rr::node {

namespace {

constexpr std::string_view index_v1 = "application/vnd.oci.image.index.v1+json";
constexpr std::string_view docker_list = "application/vnd.docker.distribution.manifest.list.v2+json";

[[noreturn]] void corrupt(std::string_view what, const std::string& why) {
  throw LayoutError(std::string(what) + ": " + why);
}

Json parse_json(std::string_view text, std::string_view what) {
  Json doc = Json::parse(text.begin(), text.end(), nullptr, false);
  if (doc.is_discarded()) corrupt(what, "not valid JSON");
  if (!doc.is_object()) corrupt(what, "not a JSON object");
  return doc;
}

std::string string_member(const Json& object, const char* key, std::string_view what, bool required = true) {
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) {
    if (required) corrupt(what, std::string("no \"") + key + "\"");
    return {};
  }
  if (!it->is_string()) corrupt(what, std::string("\"") + key + "\" is not a string");
  return it->get<std::string>();
}

std::vector<std::string> strings(const Json& object, const char* key, std::string_view what) {
  std::vector<std::string> out;
  auto it = object.find(key);
  if (it == object.end() || it->is_null()) return out;
  if (!it->is_array()) corrupt(what, std::string("\"") + key + "\" is not an array");
  for (const Json& s : *it) {
    if (!s.is_string()) corrupt(what, std::string("\"") + key + "\" holds a non-string");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Descriptor descriptor_of(const Json& d, std::string_view what) {
  if (!d.is_object()) corrupt(what, "a descriptor is not an object");
  Descriptor out;
  out.media_type = string_member(d, "mediaType", what, false);
  out.digest = string_member(d, "digest", what);
  if (out.digest.size() != 71 || out.digest.rfind("sha256:", 0) != 0 ||
      out.digest.find_first_not_of("0123456789abcdef", 7) != std::string::npos) {
    corrupt(what, "bad digest \"" + out.digest + "\" (sha256:<64 hex digits> expected)");
  }
  auto size = d.find("size");
  if (size == d.end() || !size->is_number_integer() || size->get<std::int64_t>() < 0) corrupt(what, "bad \"size\"");
  out.size = size->get<std::int64_t>();
  if (auto a = d.find("annotations"); a != d.end() && a->is_object()) {
    for (const auto& [k, v] : a->items()) {
      if (v.is_string()) out.annotations[k] = v.get<std::string>();
    }
  }
  return out;
}

bool is_index(const Descriptor& d) { return d.media_type == index_v1 || d.media_type == docker_list; }

// A platform manifest of a multi-platform index the host runs (linux/amd64), when it says.
bool for_this_host(const Json& manifest_entry) {
  auto p = manifest_entry.find("platform");
  if (p == manifest_entry.end() || !p->is_object()) return true;
  return p->value("os", "linux") == "linux" && p->value("architecture", "amd64") == "amd64";
}

std::string read_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw LayoutError(path.string() + ": cannot read (missing?)");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::filesystem::path blob_path(const std::filesystem::path& dir, const std::string& digest) {
  return dir / "blobs" / "sha256" / digest.substr(7);
}

}  // namespace

Descriptor parse_descriptor(const std::string& json_text, std::string_view what) {
  return descriptor_of(parse_json(json_text, what), what);
}

std::vector<Descriptor> parse_index(std::string_view json_text, std::string_view what) {
  const Json doc = parse_json(json_text, what);
  auto manifests = doc.find("manifests");
  if (manifests == doc.end() || !manifests->is_array()) corrupt(what, "no \"manifests\" array");
  std::vector<Descriptor> out;
  for (const Json& m : *manifests) {
    if (!for_this_host(m)) continue;
    out.push_back(descriptor_of(m, what));
  }
  return out;
}

ImageManifest parse_manifest(std::string_view json_text, std::string_view what) {
  const Json doc = parse_json(json_text, what);
  ImageManifest out;
  auto config = doc.find("config");
  if (config == doc.end()) corrupt(what, "no \"config\"");
  out.config_descriptor = descriptor_of(*config, what);
  auto layers = doc.find("layers");
  if (layers == doc.end() || !layers->is_array()) corrupt(what, "no \"layers\" array");
  for (const Json& l : *layers) out.layers.push_back(descriptor_of(l, what));
  return out;
}

ImageConfig parse_image_config(std::string_view json_text, std::string_view what) {
  const Json doc = parse_json(json_text, what);
  ImageConfig out;
  auto config = doc.find("config");
  if (config == doc.end() || config->is_null()) return out;
  if (!config->is_object()) corrupt(what, "\"config\" is not an object");
  out.entrypoint = strings(*config, "Entrypoint", what);
  out.cmd = strings(*config, "Cmd", what);
  out.env = strings(*config, "Env", what);
  out.user = string_member(*config, "User", what, false);
  out.working_dir = string_member(*config, "WorkingDir", what, false);
  return out;
}

OciLayout OciLayout::open(const std::filesystem::path& dir, std::string default_repository) {
  OciLayout layout;
  layout.dir_ = dir;
  const std::filesystem::path marker = dir / "oci-layout";
  const Json version = parse_json(read_file(marker), marker.string());
  if (version.value("imageLayoutVersion", "") != "1.0.0") {
    corrupt(marker.string(), "imageLayoutVersion is not \"1.0.0\"");
  }
  if (default_repository.empty())
    default_repository = std::filesystem::absolute(dir).lexically_normal().filename().string();
  if (default_repository.empty()) default_repository = std::filesystem::absolute(dir).parent_path().filename().string();

  // Walks index.json and the indexes it names (depth-limited: a cycle is a corrupt layout).
  std::function<void(const std::vector<Descriptor>&, std::string_view, int, const std::string*)> walk;
  walk = [&](const std::vector<Descriptor>& entries, std::string_view what, int depth, const std::string* inherited) {
    if (depth > 8) corrupt(what, "indexes nested too deeply");
    for (const Descriptor& d : entries) {
      std::string name;
      if (auto it = d.annotations.find("io.containerd.image.name"); it != d.annotations.end()) name = it->second;
      else if (auto r = d.annotations.find("org.opencontainers.image.ref.name"); r != d.annotations.end())
        name = r->second;
      else if (inherited) name = *inherited;
      if (is_index(d)) {
        const std::string blob = layout.read_blob(d);
        walk(parse_index(blob, blob_path(dir, d.digest).string()), blob_path(dir, d.digest).string(), depth + 1,
             name.empty() ? nullptr : &name);
        continue;
      }
      if (name.empty()) continue;  // a manifest no reference names cannot be asked for
      ImageReference ref;
      try {
        ref = is_tag(name) ? parse_image_reference(default_repository + ":" + name) : parse_image_reference(name);
      } catch (const std::invalid_argument& e) {
        corrupt(what, "reference \"" + name + "\": " + e.what());
      }
      layout.refs_.push_back({std::move(ref), d});
    }
  };
  const std::filesystem::path index = dir / "index.json";
  walk(parse_index(read_file(index), index.string()), index.string(), 0, nullptr);
  return layout;
}

std::string OciLayout::read_blob(const Descriptor& d) const {
  const std::filesystem::path path = blob_path(dir_, d.digest);
  std::string bytes = read_file(path);
  if (static_cast<std::int64_t>(bytes.size()) != d.size) {
    corrupt(path.string(),
            "size " + std::to_string(bytes.size()) + " is not the descriptor's " + std::to_string(d.size));
  }
  if (node_detail::sha256_digest(bytes) != d.digest) corrupt(path.string(), "content does not match its digest");
  return bytes;
}

ImageManifest OciLayout::manifest(const Descriptor& d) const {
  ImageManifest out = parse_manifest(read_blob(d), blob_path(dir_, d.digest).string());
  out.descriptor = d;
  out.config = parse_image_config(read_blob(out.config_descriptor),
                                  blob_path(dir_, out.config_descriptor.digest).string());
  return out;
}

}  // namespace rr::node
