#include <doctest/doctest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "layout_builder.hpp"
#include "rr/node/image_store.hpp"
#include "rr/node/oci_layout.hpp"
#include "tar_reader.hpp"
#include "unpack.hpp"

namespace fs = std::filesystem;
using node_test::Entry;
using node_test::LayoutBuilder;

namespace {

struct TempDir {
  fs::path path;
  TempDir() {
    std::string pattern = (fs::temp_directory_path() / "rr-node-test-XXXXXX").string();
    path = ::mkdtemp(pattern.data());
  }
  ~TempDir() { fs::remove_all(path); }
};

std::string read(const fs::path& p) {
  std::ifstream in(p);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

constexpr const char* ref_name = "org.opencontainers.image.ref.name";

}  // namespace

TEST_CASE("a layout's references: tags, full names, nested indexes, the host's platform") {
  TempDir tmp;
  LayoutBuilder b(tmp.path / "myapp");
  const rr::Json v1 = b.image({node_test::gzip(node_test::tar({{"hello", '0', "one"}}))}, {{"Entrypoint", {"/bin/app"}},
                                                                                           {"Cmd", {"serve"}},
                                                                                           {"Env", {"PATH=/bin"}},
                                                                                           {"User", "1000:1000"},
                                                                                           {"WorkingDir", "/srv"}});
  const rr::Json v2 = b.image({node_test::tar({{"hello", '0', "two"}})}, rr::Json::object());
  const rr::Json arm = b.image({node_test::tar({{"arm", '0', "x"}})}, rr::Json::object());
  rr::Json nested_manifests = rr::Json::array();
  nested_manifests.push_back(v2);
  nested_manifests.back()["platform"] = {{"os", "linux"}, {"architecture", "amd64"}};
  nested_manifests.push_back(arm);
  nested_manifests.back()["platform"] = {{"os", "linux"}, {"architecture", "arm64"}};
  const rr::Json nested = b.blob(rr::Json{{"schemaVersion", 2}, {"manifests", nested_manifests}}.dump(),
                                 "application/vnd.oci.image.index.v1+json");
  b.index({LayoutBuilder::named(v1, ref_name, "v1"),
           LayoutBuilder::named(nested, "io.containerd.image.name", "registry.local/team/other:2")});

  const auto layout = rr::node::OciLayout::open(tmp.path / "myapp");
  REQUIRE(layout.refs().size() == 2);
  CHECK(layout.refs()[0].reference.str() == "docker.io/library/myapp:v1");
  CHECK(layout.refs()[1].reference.str() == "registry.local/team/other:2");
  CHECK(layout.refs()[1].manifest.digest == v2["digest"]);

  const auto manifest = layout.manifest(layout.refs()[0].manifest);
  CHECK(manifest.config.entrypoint == std::vector<std::string>{"/bin/app"});
  CHECK(manifest.config.cmd == std::vector<std::string>{"serve"});
  CHECK(manifest.config.env == std::vector<std::string>{"PATH=/bin"});
  CHECK(manifest.config.user == "1000:1000");
  CHECK(manifest.config.working_dir == "/srv");

  rr::node::ImageStore store({tmp.path}, tmp.path / "cache");
  rr::node::ResolvedImage found;
  std::string error;
  CHECK(store.lookup("myapp:v1", &found) == rr::node::Lookup::Found);
  CHECK(found.image_id() == "docker.io/library/myapp@" + v1["digest"].get<std::string>());
  CHECK(store.lookup("docker.io/library/myapp@" + v1["digest"].get<std::string>()) == rr::node::Lookup::Found);
  CHECK(store.lookup("myapp", nullptr, &error) == rr::node::Lookup::NotFound);  // latest is not there
  CHECK(
      error ==
      "rpc error: code = NotFound desc = failed to pull and unpack image \"docker.io/library/myapp:latest\": failed to "
      "resolve reference \"docker.io/library/myapp:latest\": docker.io/library/myapp:latest: not found");
  CHECK(store.lookup("nginx") == rr::node::Lookup::UnknownRepository);
  CHECK(store.holds_repository("myapp:nope"));
  CHECK_FALSE(store.holds_repository("nginx"));

  const fs::path rootfs = store.rootfs(found);
  CHECK(read(rootfs / "hello") == "one");
  CHECK(store.rootfs(found) == rootfs);  // unpacked once
  CHECK_FALSE(fs::exists(rootfs.parent_path() / "rootfs.partial"));
}

TEST_CASE("a missing or corrupt layout is an error naming the file") {
  TempDir tmp;
  const fs::path dir = tmp.path / "app";
  fs::create_directories(dir);
  CHECK_THROWS_WITH_AS(rr::node::OciLayout::open(dir), doctest::Contains("oci-layout: cannot read"),
                       rr::node::LayoutError);
  LayoutBuilder b(dir);
  CHECK_THROWS_WITH_AS(rr::node::OciLayout::open(dir), doctest::Contains("index.json: cannot read"),
                       rr::node::LayoutError);
  LayoutBuilder::write(dir / "index.json", "{\"manifests\": 3}");
  CHECK_THROWS_WITH_AS(rr::node::OciLayout::open(dir), doctest::Contains("index.json: no \"manifests\" array"),
                       rr::node::LayoutError);
  LayoutBuilder::write(dir / "index.json", R"({"manifests": [{"digest": "sha256:zz", "size": 1}]})");
  CHECK_THROWS_WITH_AS(rr::node::OciLayout::open(dir),
                       doctest::Contains("index.json: bad digest \"sha256:zz\" (sha256:<64 hex digits> expected)"),
                       rr::node::LayoutError);
  const rr::Json image = b.image({node_test::tar({{"f", '0', "x"}})}, rr::Json::object());
  b.index(rr::Json::array({LayoutBuilder::named(image, ref_name, "v1")}));
  const auto layout = rr::node::OciLayout::open(dir);
  // A blob whose bytes changed no longer matches its digest.
  const fs::path blob = dir / "blobs/sha256" / image["digest"].get<std::string>().substr(7);
  std::string bytes = read(blob);
  bytes[bytes.size() / 2] ^= 1;
  LayoutBuilder::write(blob, bytes);
  const std::string mismatch = blob.string() + ": content does not match its digest";
  CHECK_THROWS_WITH_AS(layout.manifest(layout.refs()[0].manifest), mismatch.c_str(), rr::node::LayoutError);
  fs::remove(blob);
  const std::string missing = blob.string() + ": cannot read (missing?)";
  CHECK_THROWS_WITH_AS(layout.manifest(layout.refs()[0].manifest), missing.c_str(), rr::node::LayoutError);
}

TEST_CASE("layers apply in order: whiteouts, opaque directories, links, devices skipped") {
  TempDir tmp;
  const fs::path root = tmp.path / "root";
  fs::create_directories(root);
  using rr::node_detail::apply_layer;
  apply_layer(node_test::gzip(node_test::tar({{"etc/", '5', "", 0755},
                                              {"etc/a", '0', "a"},
                                              {"etc/b", '0', "b"},
                                              {"keep/", '5', "", 0755},
                                              {"keep/x", '0', "x"},
                                              {"bin/app", '0', "#!", 0755},
                                              {"bin/link", '1', "bin/app"},
                                              {"bin/sym", '2', "/bin/app"},
                                              {"dev/null", '3', ""}})),
              root, "layer1", false);
  CHECK(read(root / "etc/a") == "a");
  CHECK(fs::is_symlink(root / "bin/sym"));
  CHECK(fs::equivalent(root / "bin/link", root / "bin/app"));
  CHECK_FALSE(fs::exists(root / "dev/null"));
  apply_layer(node_test::tar({{"etc/.wh.a", '0', ""}, {"keep/new", '0', "n"}, {"keep/.wh..wh..opq", '0', ""}}), root,
              "layer2", false);
  CHECK_FALSE(fs::exists(root / "etc/a"));
  CHECK(fs::exists(root / "etc/b"));
  CHECK_FALSE(fs::exists(root / "keep/x"));  // the opaque directory hides the lower layer
  CHECK(read(root / "keep/new") == "n");     // but not this layer's own entries
}

TEST_CASE("a layer cannot write outside its root") {
  TempDir tmp;
  const fs::path root = tmp.path / "root";
  fs::create_directories(root);
  using rr::node_detail::apply_layer;
  CHECK_THROWS_WITH(apply_layer(node_test::tar({{"../evil", '0', "x"}}), root, "L", false),
                    "L: entry \"../evil\" leaves the image root");
  CHECK_FALSE(fs::exists(tmp.path / "evil"));
  // An absolute path lands inside the root.
  apply_layer(node_test::tar({{"/abs", '0', "x"}}), root, "L", false);
  CHECK(fs::exists(root / "abs"));
  // A symlink to outside, then a file through it: refused.
  CHECK_THROWS_WITH(
      apply_layer(node_test::tar({{"out", '2', tmp.path.string()}, {"out/evil", '0', "x"}}), root, "L", false),
      "L: entry \"out/evil\" goes through a symlink");
  CHECK_FALSE(fs::exists(tmp.path / "evil"));
  CHECK_THROWS_WITH(apply_layer(node_test::tar({{"h", '1', "../../etc/passwd"}}), root, "L", false),
                    "L: hard link \"h\" points outside the image root");
  CHECK_THROWS_WITH(apply_layer(std::string(700, 'x'), root, "L", false), doctest::Contains("L: tar: "));
  CHECK_THROWS_WITH(apply_layer(std::string("\x1f\x8b garbage", 11), root, "L", false), doctest::Contains("L: gzip:"));
}
