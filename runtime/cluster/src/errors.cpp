#include "errors.hpp"

namespace rr::cluster_detail {

void fail(Status status) { throw ApiError(std::move(status)); }

Status not_served(const KindInfo& kind) {
  Status s;
  s.message = "the server could not find the requested resource";
  s.reason = "NotFound";
  s.code = 404;
  s.details_group = kind.gvk.group;
  s.details_kind = kind.plural;
  return s;
}

Status not_found(const KindInfo& kind, std::string_view name) {
  return api_errors::not_found(kind.plural, kind.gvk.group, name);
}

Status already_exists(const KindInfo& kind, std::string_view name) {
  return api_errors::already_exists(kind.plural, kind.gvk.group, name);
}

Status stale(const KindInfo& kind, std::string_view name) {
  return conflict(kind, name, api_errors::optimistic_lock_message);
}

Status conflict(const KindInfo& kind, std::string_view name, std::string_view detail) {
  return api_errors::conflict(kind.plural, kind.gvk.group, name, detail);
}

Status invalid(const KindInfo& kind, std::string_view name, std::vector<StatusCause> causes) {
  return api_errors::invalid(kind.gvk.kind, kind.gvk.group, name, std::move(causes));
}

StatusCause cause(FieldErrorType type, std::string field, std::string message) {
  return api_errors::causes_of({FieldError{std::move(field), type, std::move(message)}}).front();
}

}  // namespace rr::cluster_detail
