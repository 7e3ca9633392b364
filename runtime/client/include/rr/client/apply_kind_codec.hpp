// Type-erased entry points of one kind's apply configuration (docs/runtime/38-apply-configurations.md),
// so programs can dispatch on apiVersion and kind at run time: the table `<name>_apply_kinds()` that
// `rrgen types --builtin --aggregate <name>` writes (rr::builtin_apply's is
// rr_builtin_apply_apply_kinds(), declared in "rr_builtin_apply_apply.hpp"). Kept out of the
// per-kind headers: only a program that includes the table's header pays for it.
#pragma once
#include <string>
#include <string_view>

namespace rr {

struct ApplyKindCodec {
  std::string_view api_version;
  std::string_view kind;
  // JSON text decoded as the kind's apply configuration (<Kind>Apply::from_json_text) and encoded
  // again: what an applier of that document sends. Throws rr::DecodeError.
  std::string (*reencode)(std::string_view json);
  // An object's JSON text decoded as the kind, then extract_<kind>(object, field_manager) encoded:
  // the configuration that manager applied. Throws rr::DecodeError, std::invalid_argument
  // (malformed managedFields).
  std::string (*extract)(std::string_view object, std::string_view field_manager);
  // The same through extract_<kind>_status; null for a kind without a status.
  std::string (*extract_status)(std::string_view object, std::string_view field_manager) = nullptr;
};

}  // namespace rr
