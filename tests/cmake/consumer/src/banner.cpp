#include "banner.hpp"

namespace gizmo {

std::string banner(const std::string& name) { return "Hello, " + name + "!"; }

}  // namespace gizmo
