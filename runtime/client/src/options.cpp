#include "rr/client/options.hpp"

namespace rr {

std::string_view content_type(PatchType t) noexcept {
  switch (t) {
    case PatchType::Merge: return "application/merge-patch+json";
    case PatchType::JsonPatch: return "application/json-patch+json";
    case PatchType::Strategic: return "application/strategic-merge-patch+json";
    case PatchType::Apply: return "application/apply-patch+yaml";
  }
  return "application/merge-patch+json";
}

std::string_view to_string(FieldValidation v) noexcept {
  switch (v) {
    case FieldValidation::Default: return "";
    case FieldValidation::Ignore: return "Ignore";
    case FieldValidation::Warn: return "Warn";
    case FieldValidation::Strict: return "Strict";
  }
  return "";
}

}  // namespace rr
