// The API server's failures for one kind, built with rr::api_errors' wording and thrown as
// rr::ApiError.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "rr/client/api_error.hpp"
#include "rr/client/kind.hpp"
#include "rr/core/errors.hpp"

namespace rr::cluster_detail {

[[noreturn]] void fail(Status status);

// 404 for a kind (or subresource) the server does not serve.
Status not_served(const KindInfo& kind);
Status not_found(const KindInfo& kind, std::string_view name);
Status already_exists(const KindInfo& kind, std::string_view name);
// 409 for a write carrying an old resourceVersion.
Status stale(const KindInfo& kind, std::string_view name);
Status conflict(const KindInfo& kind, std::string_view name, std::string_view detail);
Status invalid(const KindInfo& kind, std::string_view name, std::vector<StatusCause> causes);
// One cause of a 422: the field and field.Error.ErrorBody() ("Required value: …").
StatusCause cause(FieldErrorType type, std::string field, std::string message);

}  // namespace rr::cluster_detail
