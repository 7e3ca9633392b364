// Image references as Docker's reference grammar reads them: the spec's `image:` and the parts
// config/manager's kustomization takes (newName, newTag, digest).
#include "support/image_reference.hpp"

#include <doctest/doctest.h>

using namespace rrgen;

namespace {

const std::string kDigest = "sha256:" + std::string(64, 'f');

ImageReference parsed(const std::string& text) {
  std::string error;
  std::optional<ImageReference> ref = parse_image_reference(text, error);
  CAPTURE(text);
  CAPTURE(error);
  REQUIRE(ref);
  return *ref;
}

std::string refused(const std::string& text) {
  std::string error;
  CAPTURE(text);
  CHECK_FALSE(parse_image_reference(text, error));
  return error;
}

}  // namespace

TEST_CASE("image reference: name, tag and digest") {
  struct Case {
    std::string text, name, tag, digest;
  };
  for (const Case& c :
       {Case{"controller", "controller", "", ""}, Case{"controller:latest", "controller", "latest", ""},
        Case{"localhost:5000/team/op:v1.2", "localhost:5000/team/op", "v1.2", ""},
        Case{"[::1]:5000/op", "[::1]:5000/op", "", ""},
        Case{"Registry.Example/a__b/c-d--e.f:1.0-rc_1", "Registry.Example/a__b/c-d--e.f", "1.0-rc_1", ""},
        Case{"op@" + kDigest, "op", "", kDigest},
        Case{"reg.example:443/op:v2@" + kDigest, "reg.example:443/op", "v2", kDigest}}) {
    const ImageReference ref = parsed(c.text);
    CHECK(ref.name == c.name);
    CHECK(ref.tag == c.tag);
    CHECK(ref.digest == c.digest);
    CHECK(image_string(ref) == c.text);
  }
}

TEST_CASE("image reference: what Docker refuses") {
  CHECK(refused("") == "repository name must have at least one component");
  CHECK(refused("Operator") == "repository name must be lowercase");
  CHECK(refused("team/Op:1") == "repository name must be lowercase");
  CHECK(refused("op:").starts_with("invalid tag ''"));
  CHECK(refused("op:-x").starts_with("invalid tag '-x'"));
  CHECK(refused("op:a b").starts_with("invalid tag 'a b'"));
  CHECK(refused("op:" + std::string(129, 'a')).starts_with("invalid tag"));
  CHECK(refused(":1.0").starts_with("invalid repository path component ''"));
  CHECK(refused("a//b").starts_with("invalid repository path component ''"));
  CHECK(refused("a/-b").starts_with("invalid repository path component '-b'"));
  CHECK(refused("reg.example:port/op").starts_with("invalid registry 'reg.example:port'"));
  CHECK(refused("-reg.example/op").starts_with("invalid registry '-reg.example'"));
  CHECK(refused("op@sha256:abc").starts_with("invalid digest 'sha256:abc'"));
  CHECK(refused("op@md5:" + std::string(32, 'a')).starts_with("invalid digest"));
  CHECK(refused(std::string(256, 'a')) == "repository name must not be more than 255 characters");
  parsed(std::string(255, 'a'));
}

TEST_CASE("image reference: digests as go-digest validates them") {
  CHECK(is_valid_digest(kDigest));
  CHECK(is_valid_digest("sha512:" + std::string(128, '0')));
  CHECK(is_valid_digest("sha384:" + std::string(96, '9')));
  CHECK_FALSE(is_valid_digest("sha256:" + std::string(64, 'F')));  // upper-case hex
  CHECK_FALSE(is_valid_digest("sha256:" + std::string(63, 'f')));
  CHECK_FALSE(is_valid_digest("sha256:" + std::string(65, 'f')));
  CHECK_FALSE(is_valid_digest(std::string(64, 'f')));
  CHECK_FALSE(is_valid_digest("sha1:" + std::string(40, 'f')));
  CHECK_FALSE(is_valid_digest(""));
}
