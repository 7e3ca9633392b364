#include "rr/node/image_reference.hpp"

#include <algorithm>
#include <cctype>
#include <stdexcept>

namespace rr::node {

namespace {

bool is_hex(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return std::isdigit(static_cast<unsigned char>(c)) || (c >= 'a' && c <= 'f'); });
}

// A path component: lowercase alphanumerics separated by '.', '_', "__" or runs of '-'.
bool is_path_component(std::string_view s) {
  if (s.empty() || !std::isalnum(static_cast<unsigned char>(s.front())) ||
      !std::isalnum(static_cast<unsigned char>(s.back()))) {
    return false;
  }
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::islower(static_cast<unsigned char>(c)) || std::isdigit(static_cast<unsigned char>(c)) || c == '.' ||
           c == '_' || c == '-';
  });
}

[[noreturn]] void invalid(std::string_view why) { throw std::invalid_argument(std::string(why)); }

}  // namespace

bool is_tag(std::string_view text) {
  if (text.empty() || text.size() > 128) return false;
  if (!std::isalnum(static_cast<unsigned char>(text.front())) && text.front() != '_') return false;
  return std::all_of(text.begin(), text.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '-';
  });
}

std::string ImageReference::str() const {
  if (!digest.empty()) return repository + "@" + digest;
  return repository + ":" + tag;
}

ImageReference parse_image_reference(std::string_view text) {
  if (text.empty()) invalid("invalid reference format: empty image name");
  ImageReference ref;
  std::string_view name = text;
  if (auto at = name.find('@'); at != std::string_view::npos) {
    const std::string_view digest = name.substr(at + 1);
    name = name.substr(0, at);
    if (digest.substr(0, 7) != "sha256:" || digest.size() != 71 || !is_hex(digest.substr(7))) {
      invalid("invalid reference format: bad digest in \"" + std::string(text) + "\"");
    }
    ref.digest = std::string(digest);
  }
  // The tag follows the last ':' after the last '/' (a registry host may carry a port).
  const auto slash = name.rfind('/');
  if (auto colon = name.rfind(':');
      colon != std::string_view::npos && (slash == std::string_view::npos || colon > slash)) {
    const std::string_view tag = name.substr(colon + 1);
    if (!is_tag(tag)) invalid("invalid reference format: bad tag in \"" + std::string(text) + "\"");
    ref.tag = std::string(tag);
    name = name.substr(0, colon);
  }
  std::string domain = "docker.io";
  std::string_view path = name;
  if (auto first = name.find('/'); first != std::string_view::npos) {
    const std::string_view head = name.substr(0, first);
    if (head.find('.') != std::string_view::npos || head.find(':') != std::string_view::npos || head == "localhost") {
      domain = std::string(head);
      path = name.substr(first + 1);
    }
  }
  if (domain == "index.docker.io") domain = "docker.io";
  std::string full_path(path);
  if (domain == "docker.io" && full_path.find('/') == std::string::npos) full_path = "library/" + full_path;
  for (std::size_t begin = 0; begin <= full_path.size();) {
    const std::size_t end = std::min(full_path.find('/', begin), full_path.size());
    const std::string_view component = std::string_view(full_path).substr(begin, end - begin);
    if (!is_path_component(component)) {
      if (std::any_of(component.begin(), component.end(),
                      [](char c) { return std::isupper(static_cast<unsigned char>(c)); })) {
        invalid("invalid reference format: repository name must be lowercase");
      }
      invalid("invalid reference format: \"" + std::string(text) + "\"");
    }
    begin = end + 1;
  }
  ref.repository = domain + "/" + full_path;
  if (ref.tag.empty() && ref.digest.empty()) ref.tag = "latest";
  return ref;
}

}  // namespace rr::node
