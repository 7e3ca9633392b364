// A user translation unit that includes no generated header: editing the CRD must not recompile it.
#pragma once
#include <string>

namespace gizmo {

std::string banner(const std::string& name);

}  // namespace gizmo
