// Container image references as Docker and kustomize read them (distribution's reference grammar):
//   reference := name [ ":" tag ] [ "@" digest ]
//   name      := [ domain "/" ] path-component [ "/" path-component ]*
//   domain    := host [ ":" port ]   (a first component with '.', ':' or "localhost", or upper case)
// The spec's `image:` goes through it (a bad one is a spec diagnostic), config/manager's
// kustomization takes its parts, and `rrgen pin-image` checks the digest it is given.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace rrgen {

struct ImageReference {
  std::string name;    // "registry.example:5000/team/app": kustomize's newName
  std::string tag;     // "v1", or empty
  std::string digest;  // "sha256:<64 hex>", or empty
};

// The parts of `text`, or nullopt with why in `error` (distribution's wording where it has one).
std::optional<ImageReference> parse_image_reference(std::string_view text, std::string& error);

// "sha256:" + 64 lower-case hex digits (or sha384/sha512 with 96/128), as go-digest validates it.
bool is_valid_digest(std::string_view digest);

// name[:tag][@digest]: what kustomize writes into a container's image for the parts.
std::string image_string(const ImageReference& ref);

}  // namespace rrgen
