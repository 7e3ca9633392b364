#include "image/image_build.hpp"

#include <map>

#include "image/dockerfile.hpp"
#include "image/elf_file.hpp"
#include "image/file_bytes.hpp"
#include "image/gzip_stream.hpp"
#include "image/image_config.hpp"
#include "image/sha256.hpp"
#include "image/tar_writer.hpp"

namespace rrgen::image {
namespace {

bool all_digits(const std::string& s) {
  return !s.empty() && s.size() <= 10 && s.find_first_not_of("0123456789") == std::string::npos;
}

// "8443" -> "8443/tcp"; nullopt unless a port 1-65535 with an optional /tcp, /udp or /sctp.
std::optional<std::string> exposed_port(const std::string& text) {
  const auto slash = text.find('/');
  const std::string number = text.substr(0, slash);
  const std::string protocol = slash == std::string::npos ? "tcp" : text.substr(slash + 1);
  if (!all_digits(number) || std::stoul(number) < 1 || std::stoul(number) > 65535) return std::nullopt;
  if (protocol != "tcp" && protocol != "udp" && protocol != "sctp") return std::nullopt;
  return std::to_string(std::stoul(number)) + "/" + protocol;
}

// The layer: every file and, before it, every directory above it.
class Rootfs {
 public:
  void file(const std::string& path, std::string content, std::uint32_t mode) {
    add_parents(path);
    entries_[path.substr(1)] = {path.substr(1), TarType::File, mode, std::move(content), {}};
  }
  void directory(const std::string& path, std::uint32_t mode) {
    add_parents(path);
    entries_[path.substr(1)] = {path.substr(1), TarType::Directory, mode, {}, {}};
  }
  const std::map<std::string, TarEntry>& entries() const { return entries_; }

 private:
  void add_parents(const std::string& path) {
    for (auto slash = path.find('/', 1); slash != std::string::npos; slash = path.find('/', slash + 1)) {
      const std::string dir = path.substr(1, slash - 1);
      entries_.try_emplace(dir, TarEntry{dir, TarType::Directory, 0755, {}, {}});
    }
  }
  std::map<std::string, TarEntry> entries_;  // sorted: parents come before what they hold
};

}  // namespace

std::optional<ImageResult> build_image(const ImageRequest& request, Diagnostics& diags) {
  const Location at{intern_file_name(request.executable)};
  std::vector<std::string> ports;
  for (const auto& p : request.ports) {
    if (auto port = exposed_port(p)) ports.push_back(*port);
    else
      diags.error({}, "image-bad-port", "--port '" + p + "' is not a port (1-65535, optionally /tcp, /udp or /sctp)");
  }
  std::map<std::string, std::string> labels = {
      {"org.opencontainers.image.title", request.ref.repository.substr(request.ref.repository.rfind('/') + 1)},
      {"org.opencontainers.image.version", request.ref.tag},
      {"org.opencontainers.image.created", rfc3339(request.epoch)},
  };
  for (const auto& l : request.labels) {
    const auto eq = l.find('=');
    if (eq == std::string::npos || eq == 0) diags.error({}, "image-bad-label", "--label '" + l + "' is not key=value");
    else labels[l.substr(0, eq)] = l.substr(eq + 1);
  }
  if (!all_digits(request.user) || std::stoull(request.user) > 4294967294ull)
    diags.error({}, "image-bad-user", "--user '" + request.user + "' is not a numeric uid");
  const auto executable = read_file_bytes(request.executable);
  if (!executable) diags.error(at, "image-no-executable", "cannot read the executable");
  const auto ca = read_file_bytes(request.ca_bundle);
  if (!ca) diags.error({intern_file_name(request.ca_bundle)}, "image-no-ca-bundle", "cannot read the CA bundle");
  if (diags.has_errors()) return std::nullopt;

  const auto closure = library_closure(request.executable, *executable, request.search, diags);
  if (!closure) return std::nullopt;
  const std::string architecture = oci_architecture(closure->machine);
  if (architecture.empty()) {
    diags.error(at, "image-unknown-architecture",
                "ELF machine " + std::to_string(closure->machine) + " has no OCI architecture name");
    return std::nullopt;
  }

  Rootfs rootfs;
  rootfs.file(kEntrypoint, *executable, 0755);
  std::vector<std::string> library_paths;
  for (const auto& lib : closure->libraries) {
    rootfs.file(lib.image_path, lib.content, 0755);
    library_paths.push_back(lib.image_path);
  }
  rootfs.file(kCaBundlePath, *ca, 0644);
  rootfs.file("/etc/passwd",
              "root:x:0:0:root:/root:/sbin/nologin\nnonroot:x:65532:65532:nonroot:/home/nonroot:/sbin/nologin\n", 0644);
  rootfs.file("/etc/group", "root:x:0:\nnonroot:x:65532:\n", 0644);
  rootfs.directory("/tmp", 01777);

  TarWriter tar(request.epoch);
  std::string files_txt = "# The layer of " + request.ref.text() + ": path, size, sha256 (rrgen image).\n";
  ImageResult result;
  for (const auto& [path, entry] : rootfs.entries()) {
    tar.add(entry);
    if (entry.type != TarType::File) continue;
    files_txt += "/" + path + " " + std::to_string(entry.content.size()) + " " + oci_digest(entry.content) + "\n";
    ++result.file_count;
  }
  const std::string layer = tar.finish();
  const std::string layer_gz = gzip_compress(layer);

  ImageConfig config;
  config.architecture = architecture;
  config.entrypoint = {kEntrypoint};
  config.user = request.user + ":" + request.user;
  config.env = {"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin",
                std::string("SSL_CERT_FILE=") + kCaBundlePath};
  config.exposed_ports = ports;
  config.labels = labels;
  config.created = request.epoch;
  config.layer_diff_id = oci_digest(layer);
  config.created_by = "rrgen image";
  OciLayout layout = oci_layout(image_config_json(config), layer_gz, request.ref);

  DockerfileInput docker{request.ref.text(), kEntrypoint, config.user, config.env, ports, labels, library_paths};
  result.files = std::move(layout.files);
  result.files.push_back({"digest", layout.manifest_digest + "\n"});
  result.files.push_back({"image-ref", request.ref.text() + "@" + layout.manifest_digest + "\n"});
  result.files.push_back({"Dockerfile", dockerfile(docker)});
  result.files.push_back({"files.txt", files_txt});
  result.digest = layout.manifest_digest;
  result.layer_bytes = layer.size();
  result.layer_gz_bytes = layer_gz.size();
  result.executable_bytes = executable->size();
  return result;
}

}  // namespace rrgen::image
