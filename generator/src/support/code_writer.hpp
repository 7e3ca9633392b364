// Transitional name of the Printer (support/printer.hpp) for backends not yet ported to holes.
#pragma once
#include "support/printer.hpp"

namespace rrgen {

using CodeWriter = Printer;

}  // namespace rrgen
