// Status builders worded as k8s.io/apimachinery/pkg/api/errors words them.
#include <set>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/quote.hpp"
#include "rr/client/api_error.hpp"
#include "rr/core/errors.hpp"

namespace rr::api_errors {
namespace {

// schema.GroupResource: the plural, and "<plural>.<group>" as String() prints it.
struct GroupResource {
  std::string resource;
  std::string group;
  std::string str() const { return group.empty() ? resource : resource + "." + group; }
};

GroupResource group_resource(std::string_view resource, std::string_view group) {
  // Accept an already qualified "<plural>.<group>".
  if (!group.empty() && resource.size() > group.size() && resource.ends_with(group) &&
      resource[resource.size() - group.size() - 1] == '.') {
    resource.remove_suffix(group.size() + 1);
  }
  return {std::string(resource), std::string(group)};
}

Status failure(std::int32_t code, std::string reason, std::string message) {
  Status s;
  s.code = code;
  s.reason = std::move(reason);
  s.message = std::move(message);
  return s;
}

Status with_details(Status s, const GroupResource& gr, std::string_view name) {
  s.details_name = std::string(name);
  s.details_group = gr.group;
  s.details_kind = gr.resource;
  return s;
}

std::string_view cause_type(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::Required: return "FieldValueRequired";
    case FieldErrorType::Invalid: return "FieldValueInvalid";
    case FieldErrorType::NotSupported: return "FieldValueNotSupported";
    case FieldErrorType::TooLong: return "FieldValueTooLong";
    case FieldErrorType::TooMany: return "FieldValueTooMany";
    case FieldErrorType::Duplicate: return "FieldValueDuplicate";
    case FieldErrorType::Forbidden: return "FieldValueForbidden";
    case FieldErrorType::NotFound: return "FieldValueNotFound";
  }
  return "FieldValueInvalid";
}

}  // namespace

Status not_found(std::string_view resource, std::string_view group, std::string_view name) {
  const GroupResource gr = group_resource(resource, group);
  return with_details(failure(404, "NotFound", gr.str() + " " + go_quote(name) + " not found"), gr, name);
}

Status already_exists(std::string_view resource, std::string_view group, std::string_view name) {
  const GroupResource gr = group_resource(resource, group);
  return with_details(failure(409, "AlreadyExists", gr.str() + " " + go_quote(name) + " already exists"), gr, name);
}

Status conflict(std::string_view resource, std::string_view group, std::string_view name, std::string_view detail) {
  const GroupResource gr = group_resource(resource, group);
  return with_details(failure(409, "Conflict", "Operation cannot be fulfilled on " + gr.str() + " " + go_quote(name) +
                                                   ": " + std::string(detail)),
                      gr, name);
}

Status invalid(std::string_view kind, std::string_view group, std::string_view name, std::vector<StatusCause> causes) {
  // The message aggregates the full "<field>: <body>" texts (deduplicated, bracketed when more
  // than one, as utilerrors.Aggregate prints); each cause keeps only its body.
  std::vector<std::string> texts;
  std::set<std::string> seen;
  for (StatusCause& c : causes) {
    const std::string prefix = c.field + ": ";
    std::string full = c.field.empty() || c.message.starts_with(prefix) ? c.message : prefix + c.message;
    if (!c.field.empty() && c.message.starts_with(prefix)) c.message.erase(0, prefix.size());
    if (seen.insert(full).second) texts.push_back(std::move(full));
  }
  const std::string qualified_kind = group.empty() ? std::string(kind) : std::string(kind) + "." + std::string(group);
  std::string message = qualified_kind + " " + go_quote(name) + " is invalid";
  if (texts.size() == 1) {
    message += ": " + texts.front();
  } else if (!texts.empty()) {
    message += ": [";
    for (std::size_t i = 0; i < texts.size(); ++i) message += (i > 0 ? ", " : "") + texts[i];
    message += "]";
  }
  Status s = failure(422, "Invalid", std::move(message));
  s.details_name = std::string(name);
  s.details_group = std::string(group);
  s.details_kind = std::string(kind);
  s.causes = std::move(causes);
  return s;
}

std::vector<StatusCause> causes_of(const std::vector<FieldError>& errors) {
  std::vector<StatusCause> causes;
  causes.reserve(errors.size());
  for (const FieldError& e : errors) causes.push_back({std::string(cause_type(e.type)), e.message, e.path});
  return causes;
}

Status bad_request(std::string message) { return failure(400, "BadRequest", std::move(message)); }

Status forbidden(std::string_view resource, std::string_view group, std::string_view name,
                 std::string_view reason_text) {
  const GroupResource gr = group_resource(resource, group);
  std::string message;
  if (gr.resource.empty() && gr.group.empty()) {
    message = "forbidden: ";
  } else if (name.empty()) {
    message = gr.str() + " is forbidden: ";
  } else {
    message = gr.str() + " " + go_quote(name) + " is forbidden: ";
  }
  return with_details(failure(403, "Forbidden", message + std::string(reason_text)), gr, name);
}

Status gone(std::string message) { return failure(410, "Expired", std::move(message)); }

Status method_not_supported(std::string_view resource, std::string_view action) {
  const std::size_t dot = resource.find('.');
  const GroupResource gr{std::string(resource.substr(0, dot)),
                         dot == std::string_view::npos ? std::string() : std::string(resource.substr(dot + 1))};
  return with_details(failure(405, "MethodNotAllowed",
                              std::string(action) + " is not supported on resources of kind " + go_quote(gr.str())),
                      gr, "");
}

Status unsupported_media_type(const std::vector<std::string>& accepted) {
  std::string list;
  for (const std::string& type : accepted) list += (list.empty() ? "" : ", ") + type;
  return failure(415, "UnsupportedMediaType",
                 "the body of the request was in an unknown format - accepted media types include: " + list);
}

Status unsupported_media_type(std::string_view /*content_type*/) {
  return unsupported_media_type(std::vector<std::string>{"application/json-patch+json", "application/merge-patch+json",
                                                         "application/apply-patch+yaml"});
}

Status internal_error(std::string message) {
  Status s = failure(500, "InternalError", "Internal error occurred: " + message);
  s.causes.push_back({"", std::move(message), ""});
  return s;
}

}  // namespace rr::api_errors
