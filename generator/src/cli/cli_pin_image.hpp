// `rrgen pin-image`: the manager's image pinned to a digest in a generated tree's
// config/manager/kustomization.yaml and dist/install.yaml.
#pragma once
#include <iosfwd>
#include <string>
#include <vector>

namespace rrgen {

// Exit codes as run_cli: 0 success, 1 errors (nothing written), 2 usage error.
int run_pin_image(const std::vector<std::string>& args, std::ostream& out, std::ostream& err);

}  // namespace rrgen
