// rr_validate(): a struct's schema constraints as rr::Validator calls, as the API server checks them.
#pragma once
#include "model/model.hpp"
#include "support/printer.hpp"

namespace rrgen {

// Whether the unit's checks need rr::Pattern (rr/core/pattern.hpp).
bool unit_uses_pattern(const Unit& u);
// Defines `S::rr_validate(rr::Validator&) const`.
void emit_validate_fn(Printer& p, const StructDef& s);

}  // namespace rrgen
