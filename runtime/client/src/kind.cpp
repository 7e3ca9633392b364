#include "rr/client/kind.hpp"

#include <stdexcept>

namespace rr {

GroupVersionKind GroupVersionKind::from(std::string_view api_version, std::string_view kind) {
  GroupVersionKind gvk{.group = {}, .version = {}, .kind = std::string(kind)};
  if (api_version.empty() || api_version == "/") return gvk;
  const std::size_t slash = api_version.find('/');
  if (slash == std::string_view::npos) {
    gvk.version = std::string(api_version);
  } else if (api_version.find('/', slash + 1) != std::string_view::npos) {
    throw std::invalid_argument("unexpected GroupVersion string: " + std::string(api_version));
  } else {
    gvk.group = std::string(api_version.substr(0, slash));
    gvk.version = std::string(api_version.substr(slash + 1));
  }
  return gvk;
}

}  // namespace rr
