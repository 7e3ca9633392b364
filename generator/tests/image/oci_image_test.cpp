// The OCI JSON (config, manifest, index), image references, the Dockerfile, and build_image()
// over a fake system: exactly the expected files, reproducible, all-or-nothing on disk.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "elf_fixture.hpp"
#include "image/dockerfile.hpp"
#include "image/gzip_stream.hpp"
#include "image/image_build.hpp"
#include "image/image_config.hpp"
#include "image/image_ref.hpp"
#include "image/oci_layout.hpp"
#include "image/sha256.hpp"
#include "scratch_dir.hpp"

using namespace rrgen;
using namespace rrgen::image;
using namespace rrgen::testing;
namespace fs = std::filesystem;

namespace {

const LayoutFile* find(const std::vector<LayoutFile>& files, const std::string& path) {
  for (const auto& f : files)
    if (f.path == path) return &f;
  return nullptr;
}

// The names in a tar archive, in order (ustar prefix joined; no pax headers in these tests).
std::vector<std::string> tar_names(const std::string& tar) {
  std::vector<std::string> names;
  for (std::size_t at = 0; at + 512 <= tar.size() && tar[at] != '\0';) {
    std::string name = tar.substr(at, 100).c_str();
    const std::string prefix = tar.substr(at + 345, 155).c_str();
    if (!prefix.empty()) name = prefix + "/" + name;
    names.push_back(name);
    const std::size_t size = std::stoul(tar.substr(at + 124, 12).c_str(), nullptr, 8);
    at += 512 + (size + 511) / 512 * 512;
  }
  return names;
}

struct FakeSystem {
  ScratchDir dir;
  ImageRequest request;
  FakeSystem() {
    write_file(dir.path / "lib64/ld-linux-x86-64.so.2", lib_elf());
    write_file(dir.path / "lib/x86_64-linux-gnu/libc.so.6", lib_elf({"ld-linux-x86-64.so.2"}));
    write_file(dir.path / "usr/lib/x86_64-linux-gnu/libz.so.1", lib_elf({"libc.so.6"}));
    write_file(dir.path / "build/operator", exe_elf({"libz.so.1", "libc.so.6"}));
    write_file(dir.path / "ca.crt", "-----BEGIN CERTIFICATE-----\n");
    request.executable = (dir.path / "build/operator").string();
    request.ref = {"example.com/team/webapp-operator", "v1"};
    request.ports = {"8443", "9443/tcp"};
    request.labels = {"org.example/team=apps"};
    request.ca_bundle = (dir.path / "ca.crt").string();
    request.search.root = dir.path.string();
  }
};

}  // namespace

TEST_CASE("image references: repository and tag, 'latest' by default, no digests") {
  std::string error;
  auto ref = parse_image_ref("localhost:5000/team/op:v1.2", error);
  REQUIRE(ref);
  CHECK(ref->repository == "localhost:5000/team/op");
  CHECK(ref->tag == "v1.2");
  CHECK(parse_image_ref("controller", error)->text() == "controller:latest");
  CHECK(parse_image_ref("controller", error)->full_name() == "docker.io/library/controller:latest");
  CHECK(parse_image_ref("localhost/op:1", error)->full_name() == "localhost/op:1");
  CHECK(parse_image_ref("localhost:5000/team/op:v1.2", error)->full_name() == "localhost:5000/team/op:v1.2");
  CHECK(parse_image_ref("ghcr.io/acme/op:v1", error)->full_name() == "ghcr.io/acme/op:v1");
  CHECK(parse_image_ref("Registry.Example.com/team/op:v1", error));
  CHECK_FALSE(parse_image_ref("Upper/case:v1", error));
  CHECK_FALSE(parse_image_ref("team/Upper:v1", error));
  CHECK_FALSE(parse_image_ref("op:bad tag", error));
  CHECK_FALSE(parse_image_ref("op@sha256:0123", error));
  CHECK(error.find("has a digest") != std::string::npos);
}

TEST_CASE("config JSON: sorted keys, no spaces, the epoch as `created`") {
  ImageConfig c;
  c.architecture = "amd64";
  c.entrypoint = {"/manager"};
  c.user = "65532:65532";
  c.env = {"PATH=/bin"};
  c.exposed_ports = {"8443/tcp"};
  c.labels = {{"b", "2"}, {"a", "1"}};
  c.created = 86400;
  c.layer_diff_id = "sha256:00";
  c.created_by = "rrgen image";
  CHECK(
      image_config_json(c) ==
      R"({"architecture":"amd64","config":{"Entrypoint":["/manager"],"Env":["PATH=/bin"],"ExposedPorts":{"8443/tcp":{}},)"
      R"("Labels":{"a":"1","b":"2"},"User":"65532:65532","WorkingDir":"/"},"created":"1970-01-02T00:00:00Z",)"
      R"("history":[{"created":"1970-01-02T00:00:00Z","created_by":"rrgen image"}],"os":"linux",)"
      R"("rootfs":{"diff_ids":["sha256:00"],"type":"layers"}})");
}

TEST_CASE("layout: blobs named by their digest, the manifest tagged in index.json") {
  const OciLayout layout = oci_layout("{\"config\":1}", "layer-bytes", ImageRef{"team/op", "v2"});
  CHECK(find(layout.files, "oci-layout")->content == R"({"imageLayoutVersion":"1.0.0"})");
  for (const auto& f : layout.files)
    if (f.path.rfind("blobs/sha256/", 0) == 0) CHECK(f.path == "blobs/sha256/" + sha256_hex(f.content));
  const auto index = nlohmann::json::parse(find(layout.files, "index.json")->content);
  CHECK(index["manifests"].size() == 1);
  CHECK(index["manifests"][0]["digest"] == layout.manifest_digest);
  CHECK(index["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"] == "v2");
  CHECK(index["manifests"][0]["annotations"]["io.containerd.image.name"] == "docker.io/team/op:v2");
  const auto manifest = nlohmann::json::parse(
      find(layout.files, "blobs/sha256/" + layout.manifest_digest.substr(7))->content);
  CHECK(manifest["config"]["digest"] == oci_digest("{\"config\":1}"));
  CHECK(manifest["layers"][0]["size"] == 11);
  CHECK(manifest["layers"][0]["mediaType"] == kLayerMediaType);
}

TEST_CASE("Dockerfile: the same entrypoint and user, libraries split by what the base has") {
  const std::string d = dockerfile({"op:v1",
                                    "/manager",
                                    "65532:65532",
                                    {"A=b"},
                                    {"8443/tcp"},
                                    {{"k", "v"}},
                                    {"/lib64/ld-linux-x86-64.so.2", "/usr/lib/x86_64-linux-gnu/libz.so.1"}});
  CHECK(d.find("FROM gcr.io/distroless/cc-debian12:nonroot\nCOPY manager /manager\n") != std::string::npos);
  CHECK(d.find("#   /lib64/ld-linux-x86-64.so.2\n") != std::string::npos);
  CHECK(d.find("# COPY --from=libs /usr/lib/x86_64-linux-gnu/libz.so.1 /usr/lib/x86_64-linux-gnu/libz.so.1\n") !=
        std::string::npos);
  CHECK(d.find("EXPOSE 8443/tcp\nLABEL \"k\"=\"v\"\nUSER 65532:65532\nWORKDIR /\nENTRYPOINT [\"/manager\"]\n") !=
        std::string::npos);
}

TEST_CASE("build_image: exactly the executable, its libraries, CA bundle, passwd, group and /tmp") {
  FakeSystem fake;
  Diagnostics diags;
  const auto result = build_image(fake.request, diags);
  REQUIRE_MESSAGE(result, (diags.all().empty() ? "" : diags.all()[0].message));
  const auto manifest = nlohmann::json::parse(find(result->files, "blobs/sha256/" + result->digest.substr(7))->content);
  const std::string layer_digest = manifest["layers"][0]["digest"];
  const std::string layer = gzip_decompress(find(result->files, "blobs/sha256/" + layer_digest.substr(7))->content);
  CHECK(tar_names(layer) ==
        std::vector<std::string>{
            "etc/", "etc/group", "etc/passwd", "etc/ssl/", "etc/ssl/certs/", "etc/ssl/certs/ca-certificates.crt",
            "lib/", "lib/x86_64-linux-gnu/", "lib/x86_64-linux-gnu/libc.so.6", "lib64/", "lib64/ld-linux-x86-64.so.2",
            "manager", "tmp/", "usr/", "usr/lib/", "usr/lib/x86_64-linux-gnu/", "usr/lib/x86_64-linux-gnu/libz.so.1"});
  const auto config = nlohmann::json::parse(
      find(result->files, "blobs/sha256/" + std::string(manifest["config"]["digest"]).substr(7))->content);
  CHECK(config["rootfs"]["diff_ids"][0] == oci_digest(layer));
  CHECK(config["config"]["User"] == "65532:65532");
  CHECK(config["config"]["Entrypoint"] == nlohmann::json::array({"/manager"}));
  CHECK(config["config"]["ExposedPorts"] == nlohmann::json::parse(R"({"8443/tcp":{},"9443/tcp":{}})"));
  CHECK(config["config"]["Labels"]["org.example/team"] == "apps");
  CHECK(config["config"]["Labels"]["org.opencontainers.image.title"] == "webapp-operator");
  CHECK(config["created"] == "1970-01-01T00:00:00Z");
  CHECK(find(result->files, "digest")->content == result->digest + "\n");
  CHECK(find(result->files, "image-ref")->content == "example.com/team/webapp-operator:v1@" + result->digest + "\n");
  const std::string files_txt = find(result->files, "files.txt")->content;
  CHECK(files_txt.find("\n/lib/x86_64-linux-gnu/libc.so.6 ") != std::string::npos);
  CHECK(files_txt.find("\n/manager " + std::to_string(result->executable_bytes) + " sha256:") != std::string::npos);
  // No path of this machine in any file (the fake root is a build path).
  for (const auto& f : result->files)
    CHECK_MESSAGE(f.content.find(fake.dir.path.string()) == std::string::npos, f.path);
}

TEST_CASE("build_image: reproducible; SOURCE_DATE_EPOCH and the inputs change the digest") {
  FakeSystem fake;
  Diagnostics diags;
  const auto a = build_image(fake.request, diags);
  const auto b = build_image(fake.request, diags);
  REQUIRE((a && b));
  CHECK(a->digest == b->digest);
  fake.request.epoch = 1700000000;
  const auto later = build_image(fake.request, diags);
  REQUIRE(later);
  CHECK(later->digest != a->digest);
  fake.request.epoch = 0;
  fake.request.ports.pop_back();
  CHECK(build_image(fake.request, diags)->digest != a->digest);
}

TEST_CASE("build_image: bad ports, labels and users are errors") {
  FakeSystem fake;
  fake.request.ports = {"0", "70000", "80/icmp"};
  fake.request.labels = {"novalue", "=x"};
  fake.request.user = "nonroot";
  Diagnostics diags;
  CHECK_FALSE(build_image(fake.request, diags));
  CHECK(diags.error_count() == 6);
}

TEST_CASE("replace_directory: the old layout is replaced whole; a failed write leaves it as it was") {
  ScratchDir s;
  const std::string out = (s.path / "img").string();
  Diagnostics diags;
  REQUIRE(replace_directory({{"oci-layout", "1"}, {"sub/b", "2"}}, out, diags));
  REQUIRE(replace_directory({{"oci-layout", "2"}, {"c", "3"}}, out, diags));
  CHECK_FALSE(fs::exists(s.path / "img/sub"));
  CHECK(read_file(s.path / "img/c") == "3");
  // "x" as a file and "x/y" under it cannot both be written.
  CHECK_FALSE(replace_directory({{"x", "file"}, {"x/y", "under a file"}}, out, diags));
  CHECK(diags.has_errors());
  CHECK(read_file(s.path / "img/c") == "3");
  std::vector<std::string> left;
  for (const auto& e : fs::directory_iterator(s.path)) left.push_back(e.path().filename().string());
  CHECK(left == std::vector<std::string>{"img"});
}

TEST_CASE("replace_directory: a directory that is not a layout is never replaced") {
  ScratchDir s;
  write_file(s.path / "home/notes.txt", "mine");
  Diagnostics diags;
  CHECK_FALSE(replace_directory({{"oci-layout", "1"}}, (s.path / "home").string(), diags));
  CHECK(diags.all().at(0).message.find("holds no image layout") != std::string::npos);
  CHECK(read_file(s.path / "home/notes.txt") == "mine");
  fs::create_directories(s.path / "empty");
  CHECK(replace_directory({{"oci-layout", "1"}}, (s.path / "empty").string(), diags));
}
