#include "image/image_ref.hpp"

#include <regex>

namespace rrgen::image {

std::optional<ImageRef> parse_image_ref(const std::string& text, std::string& error) {
  if (text.find('@') != std::string::npos) {
    error = "'" + text + "' has a digest; give <repository>:<tag> (the digest is the build's result)";
    return std::nullopt;
  }
  ImageRef ref;
  // A ':' after the last '/' starts the tag; one before it is a registry's port.
  const auto colon = text.rfind(':');
  const auto slash = text.rfind('/');
  if (colon != std::string::npos && (slash == std::string::npos || colon > slash)) {
    ref.repository = text.substr(0, colon);
    ref.tag = text.substr(colon + 1);
  } else {
    ref.repository = text;
    ref.tag = "latest";
  }
  // The distribution spec's grammar: an optional registry (as docker tells one: a first component
  // with a '.' or a port, or localhost), then lower-case path components separated by '/', each
  // [a-z0-9]+ joined by '.', '_', '__' or '-'s.
  static const std::regex kRepository(
      R"(((localhost|[a-zA-Z0-9-]+(\.[a-zA-Z0-9-]+)+)(:[0-9]+)?/|[a-zA-Z0-9-]+:[0-9]+/)?)"
      R"([a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*(/[a-z0-9]+((\.|_|__|-+)[a-z0-9]+)*)*)");
  static const std::regex kTag(R"([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})");
  if (ref.repository.size() > 255 || !std::regex_match(ref.repository, kRepository)) {
    error = "'" + ref.repository + "' is not an image repository (lower-case path components, an optional registry)";
    return std::nullopt;
  }
  if (!std::regex_match(ref.tag, kTag)) {
    error = "'" + ref.tag + "' is not an image tag ([A-Za-z0-9_][A-Za-z0-9_.-]{0,127})";
    return std::nullopt;
  }
  return ref;
}

std::string ImageRef::full_name() const {
  const auto slash = repository.find('/');
  const std::string first = repository.substr(0, slash);
  const bool has_registry = slash != std::string::npos &&
                            (first.find_first_of(".:") != std::string::npos || first == "localhost");
  if (has_registry) return text();
  return std::string("docker.io/") + (slash == std::string::npos ? "library/" : "") + text();
}

}  // namespace rrgen::image
