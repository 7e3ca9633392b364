// Tolerant decoding of required members (rr/core/missing_members.hpp): a struct sema gave a
// StructDef::missing_member records which Presence::Required members its JSON lacked, one bit
// each in member order; encoding, validation, equality and defaulting then treat such a member
// as absent while it still holds its default. Hand-declared structs stay strict.
#pragma once
#include <cstddef>
#include <optional>
#include <string>

#include "model/model.hpp"
#include "support/printer.hpp"

namespace rrgen {

// The bit of `f` in the record of `s`, or nothing when `f` is not tracked.
std::optional<std::size_t> missing_bit(const StructDef& s, const FieldDef& f);
// How many members the record of `s` tracks (0: it has none).
std::size_t missing_count(const StructDef& s);
// The expression, over the value `v`, that is true while `f` is absent ("false" when untracked).
std::string absent_expr(const StructDef& s, const FieldDef& f);
// After a decode loop that set a `has_<member>` flag per required member: strict structs fail on
// the first one missing (JSON only: `strict_fail`), tolerant ones reset it and set its bit.
void print_missing(Printer& p, const StructDef& s, bool strict_fail);

}  // namespace rrgen
