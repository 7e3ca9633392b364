// The verbs on resources: get, list, watch, create, update, patch, delete, deletecollection,
// on the main resource and its status subresource.
#include <algorithm>

#include "admission_dispatcher.hpp"
#include "body_codec.hpp"
#include "builtin_resources.hpp"
#include "escalation_check.hpp"
#include "json_members.hpp"
#include "media_negotiation.hpp"
#include "owner_references_admission.hpp"
#include "rest_handler.hpp"
#include "rr/client/resource_version.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/go_quote.hpp"
#include "rr/validation/decoding.hpp"

namespace rr::apiserver_detail {

namespace {

const GroupVersionKind crd_gvk{"apiextensions.k8s.io", "v1", "CustomResourceDefinition"};

Status not_served() {
  Status s;
  s.message = "the server could not find the requested resource";
  s.reason = "NotFound";
  s.code = 404;
  return s;
}

bool names_a_resource_version(const std::string& rv) { return !rv.empty() && rv != "0"; }

bool is_write(const std::string& method) { return method != "GET"; }

// What a GET answers, as the Accept header asks (406 when nothing it names can be answered); for a
// Table, includeObject says what each row carries (400 on another value, as the API server's
// TableOptions validation).
ResponseForm response_form(const HttpRequest& request, const QueryParams& params) {
  ResponseForm form;
  form.media = negotiate_output(request.accept);
  if (form.media.form != OutputForm::Table) return form;
  auto [first, last] = params.equal_range("includeObject");
  const std::string include_text = first == last ? std::string() : std::prev(last)->second;
  const auto include = parse_include_object(include_text);
  if (!include) {
    throw ApiError(api_errors::bad_request("includeObject: Invalid value: \"" + include_text +
                                           "\": must be 'Metadata', 'Object', 'None', or empty"));
  }
  form.table = TableOptions{.version = form.media.version, .include = *include};
  return form;
}

}  // namespace

// The namespace of the path is the object's; a different one in the body is refused.
void place_in_namespace(const KindInfo& kind, const Route& route, Json& object) {
  if (!kind.namespaced()) return;
  const std::string in_body = meta_string(object, "namespace");
  if (in_body.empty()) {
    if (!object.contains("metadata") || !object["metadata"].is_object()) object["metadata"] = Json::object();
    object["metadata"]["namespace"] = route.namespace_;
  } else if (in_body != route.namespace_) {
    throw ApiError(api_errors::bad_request(
        "the namespace of the provided object does not match the namespace sent on the request"));
  }
}

namespace {
FieldValidation field_validation(const std::string& text) {
  if (text == "Strict") return FieldValidation::Strict;
  if (text == "Warn") return FieldValidation::Warn;
  if (text == "Ignore") return FieldValidation::Ignore;
  return FieldValidation::Default;
}
}  // namespace

WriteOptions write_options(const RequestQuery& query, std::vector<std::string>* warnings) {
  return WriteOptions{.dry_run = query.dry_run,
                      .field_manager = query.field_manager,
                      .force = query.force,
                      .field_validation = field_validation(query.field_validation),
                      .warnings = warnings};
}

// Each warning of the write as an HTTP Warning header (RFC 7234: code 299, agent "-", the text
// quoted as Go's strconv.Quote, as the API server writes it), which kubectl prints as "Warning: <text>".
HttpReply with_warnings(HttpReply reply, const std::vector<std::string>& warnings) {
  for (const auto& text : warnings) reply.headers.emplace_back("Warning", "299 - " + go_quote(text));
  return reply;
}

namespace {
// Duplicated members of the body, which the parser resolved to the last one: a strict decoding
// error under Strict, a warning each under Warn (the default), nothing under Ignore.
void check_duplicates(const KindInfo& kind, const RequestQuery& query, const HttpRequest& request,
                      std::vector<std::string>& warnings) {
  const std::vector<std::string> errors = strict_body_errors(request.content_type, request.body);
  if (errors.empty()) return;
  const FieldValidation directive = field_validation(query.field_validation);
  if (directive == FieldValidation::Strict) {
    throw ApiError(api_errors::bad_request(
        validation::cannot_be_handled(kind.gvk.kind, kind.gvk.version, validation::strict_decoding_error(errors))));
  }
  if (directive == FieldValidation::Ignore) return;
  for (const auto& error : errors) {
    for (auto& warning : validation::yaml_error_warnings(error)) warnings.push_back(std::move(warning));
  }
}
}  // namespace

int patch_reply_code(const Cluster& cluster, const KindInfo& kind, const ObjectKey& key, PatchType type,
                     std::string_view subresource) {
  if (type != PatchType::Apply || !subresource.empty()) return 200;
  try {
    cluster.get(kind, key);
  } catch (const ApiError& e) {
    if (is_not_found(e.status())) return 201;
    throw;
  }
  return 200;
}

Status unsupported_patch_type() {
  return api_errors::unsupported_media_type(
      std::vector<std::string>{"application/json-patch+json", "application/merge-patch+json",
                               "application/apply-patch+yaml", "application/strategic-merge-patch+json"});
}

std::optional<PatchType> patch_type_of(std::string_view content_type) {
  const std::string_view media = media_type(content_type);
  for (PatchType t : {PatchType::Merge, PatchType::JsonPatch, PatchType::Strategic, PatchType::Apply}) {
    if (media == rr::content_type(t)) return t;
  }
  return std::nullopt;
}

DeleteOptions delete_options_of(std::string_view content_type, const std::string& body, const RequestQuery& query) {
  DeleteOptions opts;
  opts.dry_run = query.dry_run;
  if (query.propagation) opts.propagation = *query.propagation;
  const bool blank = std::all_of(body.begin(), body.end(), [](char c) { return c == ' ' || c == '\n' || c == '\r' || c == '\t'; });
  if (blank) return opts;
  const Json doc = decode_body(content_type, body);
  if (auto it = doc.find("propagationPolicy"); it != doc.end() && !it->is_null()) {
    auto policy = it->is_string() ? parse_propagation(it->get<std::string>()) : std::nullopt;
    if (!policy) throw ApiError(api_errors::bad_request("propagationPolicy: Unsupported value: " + it->dump()));
    opts.propagation = *policy;
  } else if (auto orphan = doc.find("orphanDependents"); orphan != doc.end() && orphan->is_boolean()) {
    opts.propagation = orphan->get<bool>() ? PropagationPolicy::Orphan : PropagationPolicy::Background;
  }
  if (auto pre = doc.find("preconditions"); pre != doc.end() && pre->is_object()) {
    if (auto uid = pre->find("uid"); uid != pre->end() && uid->is_string()) opts.precondition_uid = uid->get<std::string>();
    if (auto rv = pre->find("resourceVersion"); rv != pre->end() && rv->is_string()) {
      opts.precondition_resource_version = rv->get<std::string>();
    }
  }
  if (auto dry = doc.find("dryRun"); dry != doc.end() && dry->is_array()) {
    for (const Json& value : *dry) {
      if (value != "All") throw ApiError(api_errors::bad_request("Invalid dry run value: " + value.dump()));
      opts.dry_run = true;
    }
  }
  return opts;
}

void validate_list_options(const RequestQuery& query, bool watch_list_enabled) {
  std::vector<FieldError> errors;
  auto forbid = [&](const char* field, const std::string& detail) {
    errors.push_back(FieldError{field, FieldErrorType::Forbidden, std::string(field) + ": Forbidden: " + detail});
  };
  const std::string& match = query.resource_version_match;
  if (query.watch) {
    if (query.send_initial_events) {
      if (!query.list.allow_watch_bookmarks) {
        forbid("allowWatchBookmarks", "sendInitialEvents requires setting allowWatchBookmarks to true");
      }
      if (match != "NotOlderThan") {
        forbid("resourceVersionMatch", "sendInitialEvents requires setting resourceVersionMatch to NotOlderThan");
      }
      if (!watch_list_enabled) {
        forbid("sendInitialEvents",
               "sendInitialEvents is forbidden for watch unless the WatchList feature gate is enabled");
      }
    } else if (!match.empty()) {
      forbid("resourceVersionMatch", "resourceVersionMatch is forbidden for watch unless sendInitialEvents is provided");
    }
  } else {
    if (query.send_initial_events) forbid("sendInitialEvents", "sendInitialEvents is forbidden for list");
    if (!match.empty() && query.list.resource_version.empty()) {
      forbid("resourceVersionMatch", "resourceVersionMatch is forbidden unless resourceVersion is provided");
    }
    if (match == "Exact" && query.list.resource_version == "0") {
      forbid("resourceVersionMatch", "resourceVersionMatch \"exact\" is forbidden for resourceVersion \"0\"");
    }
  }
  if (!errors.empty()) throw ApiError(api_errors::invalid("ListOptions", "meta.k8s.io", "", api_errors::causes_of(errors)));
}

void check_query_resource_version(const std::string& rv) {
  if (const ParsedResourceVersion parsed = parse_resource_version(rv); !parsed.error.empty()) {
    throw ApiError(api_errors::malformed_query_resource_version(rv, parsed));
  }
}

HttpReply RestHandler::resource(const HttpRequest& request, const UserInfo& user, const Route& route,
                                const QueryParams& params) const {
  if (const ReviewResource* review_kind = find_review_resource(route.group, route.version, route.resource)) {
    return review(request, user, *review_kind, route);
  }
  const auto kind = catalog_.find(route.group, route.version, route.resource);
  if (!kind) return status_reply(not_served());
  // A namespaced kind's items live under namespaces/<ns>/; a cluster-scoped kind has none.
  if (kind->namespaced() ? (!route.name.empty() && !route.namespaced_path) : route.namespaced_path) {
    return status_reply(not_served());
  }
  RequestQuery query = parse_query(params);
  query.list.namespace_ = route.namespace_;
  if (route.subresource == "scale" && !route.name.empty()) {
    if (auto paths = scale_paths(*kind)) {
      if (auto failure = faults_.before_request(is_write(request.method), kind->plural, kind->gvk.group, route.name)) {
        return status_reply(*failure);
      }
      return scale(request, *kind, *paths, route, query);
    }
  }
  if (route.subresource == "token" && !route.name.empty() &&
      kind->gvk == GroupVersionKind{"", "v1", "ServiceAccount"}) {
    return token_request(request, route);
  }
  if (route.subresource == "log" && !route.name.empty() && kind->gvk == GroupVersionKind{"", "v1", "Pod"}) {
    return pod_log(request, *kind, route, params);
  }
  if (!route.subresource.empty() && !(route.subresource == "status" && kind->has_status)) {
    return status_reply(not_served());
  }
  const std::string& method = request.method;
  const bool collection = route.name.empty();
  const ResponseForm form = method == "GET" ? response_form(request, params) : ResponseForm{};
  if (auto crd = crd_of(*kind)) {
    // Served in a version other than the one stored: converted.
    if (auto conversion = crd_conversion(*crd); conversion && conversion->storage_version != kind->gvk.version) {
      if (auto storage = catalog_.find(kind->gvk.group, conversion->storage_version, kind->plural)) {
        return converted(request, user, *kind, *storage, *conversion, route, std::move(query), form);
      }
    }
  }

  if (query.watch && method == "GET") {
    if (!collection) {
      // The deprecated watch of one named object.
      query.list.field_selector = "metadata.name=" + route.name +
                                  (query.list.field_selector.empty() ? "" : "," + query.list.field_selector);
    }
    return watch(*kind, std::move(query), form);
  }
  if (auto failure = faults_.before_request(is_write(method), kind->plural, kind->gvk.group, route.name)) {
    return status_reply(*failure);
  }
  const bool rbac_kind = kind->gvk.group == "rbac.authorization.k8s.io";  // roleRef is immutable in every mode
  // An apply that creates is authorized as a create first, then admitted as one (as the API
  // server's createValidation: authorization, then the validating admission plugins).
  if (method == "PATCH" && !collection) authorize_apply_create(request, user, *kind, route);
  if ((authorizer_.enforcing() || rbac_kind) && route.subresource.empty() &&
      (method == "POST" || method == "PUT" || method == "PATCH")) {
    admit_write_as(request, user, *kind, route, query);
  }
  if (collection) {
    if (method == "GET") return read(request, *kind, route, std::move(query), form);
    if (method == "POST") {
      if (kind->namespaced() && !route.namespaced_path) {
        return status_reply(api_errors::method_not_supported(kind->plural, "create"));
      }
      return create(*kind, route, query, request);
    }
    if (method == "DELETE") return remove_collection(*kind, route, query, request);
    return status_reply(api_errors::method_not_supported(kind->resource_group(), method));
  }
  if (method == "GET") return read(request, *kind, route, std::move(query), form);
  if (method == "PUT") return replace(*kind, route, query, request);
  if (method == "PATCH") return patch(*kind, route, query, request);
  if (method == "DELETE" && route.subresource.empty()) return remove(*kind, route, query, request);
  return status_reply(api_errors::method_not_supported(kind->resource_group(), method));
}

HttpReply RestHandler::read(const HttpRequest& request, const KindInfo& kind, const Route& route, RequestQuery query,
                            const ResponseForm& form) const {
  auto answer = [&](const Json& object) { return object_reply(request, shaped(kind, form, object)); };
  if (!route.name.empty()) {
    check_query_resource_version(query.list.resource_version);
    return answer(cluster_->get(kind, ObjectKey{route.namespace_, route.name}));
  }
  validate_list_options(query);
  const std::string& rv = query.list.resource_version;
  check_query_resource_version(rv);
  if (names_a_resource_version(rv)) {
    if (faults_.expire()) throw ApiError(api_errors::gone("too old resource version: " + rv + " (" + cluster_->resource_version() + ")"));
    // Lists are served from the current state, which satisfies NotOlderThan; an Exact older
    // version is no longer there.
    if (query.resource_version_match == "Exact" && rv != cluster_->resource_version()) {
      throw ApiError(api_errors::gone("too old resource version: " + rv + " (" + cluster_->resource_version() + ")"));
    }
  }
  query.list.resource_version.clear();
  return answer(cluster_->list(kind, query.list));
}

std::optional<Json> RestHandler::crd_of(const KindInfo& kind) const {
  if (kind.gvk.group.empty()) return std::nullopt;
  if (builtin_resource(kind)) return std::nullopt;
  const auto crd_kind = catalog_.find(crd_gvk.group, crd_gvk.version, "customresourcedefinitions");
  if (!crd_kind) return std::nullopt;
  try {
    return cluster_->get(*crd_kind, ObjectKey{"", kind.plural + "." + kind.gvk.group});
  } catch (const ApiError&) {
    return std::nullopt;  // registered by an operator without a CRD, or the CRD is gone
  }
}

std::vector<PrinterColumn> RestHandler::printer_columns(const KindInfo& kind) const {
  if (auto crd = crd_of(kind)) return crd_printer_columns(*crd, kind.gvk.version);
  return builtin_printer_columns(kind.gvk);
}

HttpReply RestHandler::watch(const KindInfo& kind, RequestQuery query, const ResponseForm& form) const {
  validate_list_options(query, !faults_.options().refuse_watch_list);
  ListOptions opts = query.list;
  if (query.send_initial_events) {
    // The current state as ADDED events, then the initial-events-end bookmark (the cluster sends
    // both for a watch from ""), or no initial state at all.
    opts.resource_version = *query.send_initial_events ? "" : cluster_->resource_version();
  } else if (names_a_resource_version(opts.resource_version) && faults_.expire()) {
    HttpReply reply;
    const Status expired = api_errors::gone("too old resource version: " + opts.resource_version + " (" +
                                            cluster_->resource_version() + ")");
    reply.body = watch_event_line(WatchEvent{WatchEventType::Error, expired.to_json()});
    return reply;
  }
  HttpReply reply;
  reply.watch = cluster_->watch(kind, opts);
  reply.transform_event = watch_shaper(kind, form);
  return reply;
}

Json RestHandler::shaped(const KindInfo& kind, const ResponseForm& form, const Json& object) const {
  switch (form.media.form) {
    case OutputForm::Object: break;
    case OutputForm::Table: return make_table(printer_columns(kind), object, form.table, PrintClock::now());
    case OutputForm::PartialObjectMetadata: return as_partial_object_metadata(object, form.media.version);
    case OutputForm::PartialObjectMetadataList: return as_partial_object_metadata_list(object, form.media.version);
  }
  return object;
}

std::function<WatchEvent(WatchEvent)> RestHandler::watch_shaper(const KindInfo& kind, const ResponseForm& form) const {
  switch (form.media.form) {
    case OutputForm::Object: break;
    case OutputForm::Table:
      // Each object event carries a one-row Table; only the first has column definitions (as the
      // API server sends them; kubectl keeps the last ones it saw).
      return [columns = printer_columns(kind), options = form.table](WatchEvent event) mutable {
        if (event.type == WatchEventType::Added || event.type == WatchEventType::Modified ||
            event.type == WatchEventType::Deleted) {
          event.object = make_table(columns, event.object, options, PrintClock::now());
          options.headers = false;
        }
        return event;
      };
    case OutputForm::PartialObjectMetadata:
      // Bookmarks too (their resourceVersion and annotations); ERROR events keep their Status.
      return [version = form.media.version](WatchEvent event) {
        if (event.type != WatchEventType::Error) event.object = as_partial_object_metadata(event.object, version);
        return event;
      };
    case OutputForm::PartialObjectMetadataList:
      // The API server fails to make a list of each event's object, logs it and sends the object
      // as it is: whole objects.
      break;
  }
  return {};
}

HttpReply RestHandler::create(const KindInfo& kind, const Route& route, const RequestQuery& query,
                              const HttpRequest& request) const {
  Json object = decode_body(request.content_type, request.body);
  std::vector<std::string> warnings;
  check_duplicates(kind, query, request, warnings);
  place_in_namespace(kind, route, object);
  const JsonBodyScope written(request.content_type, request.body);
  Json created = cluster_->create(kind, object, write_options(query, &warnings));
  after_write(kind, meta_string(created, "name"), query.dry_run);
  return with_warnings(object_reply(request, created, 201), warnings);
}

HttpReply RestHandler::replace(const KindInfo& kind, const Route& route, const RequestQuery& query,
                               const HttpRequest& request) const {
  Json object = decode_body(request.content_type, request.body);
  std::vector<std::string> warnings;
  check_duplicates(kind, query, request, warnings);
  place_in_namespace(kind, route, object);
  const std::string name = meta_string(object, "name");
  if (name.empty()) {
    object["metadata"]["name"] = route.name;
  } else if (name != route.name) {
    throw ApiError(api_errors::bad_request("the name of the object (" + name +
                                           ") does not match the name on the URL (" + route.name + ")"));
  }
  const WriteOptions opts = write_options(query, &warnings);
  const JsonBodyScope written(request.content_type, request.body);
  Json updated = route.subresource == "status" ? cluster_->update_status(kind, object, opts)
                                               : cluster_->update(kind, object, opts);
  after_write(kind, route.name, query.dry_run);
  return with_warnings(object_reply(request, updated), warnings);
}

// An apply that creates the object needs `create` as well as `patch`, as the API server's patch
// handler checks (its createValidation is wrapped in an authorization of verb create): a role
// granting patch alone can change an object but not bring one into being. The refusal is the
// API server's: 403 `deployments.apps "web" is forbidden: <reason>`.
void RestHandler::authorize_apply_create(const HttpRequest& request, const UserInfo& user, const KindInfo& kind,
                                         const Route& route) const {
  if (!authorizer_.enforcing() || !route.subresource.empty()) return;
  const auto type = patch_type_of(request.content_type);
  if (!type || *type != PatchType::Apply) return;
  if (patch_reply_code(*cluster_, kind, {route.namespace_, route.name}, *type, route.subresource) != 201) return;
  const RequestAttributes asked{.user = user,
                                .verb = "create",
                                .group = kind.gvk.group,
                                .resource = kind.plural,
                                .namespace_ = route.namespace_,
                                .name = route.name};
  const Decision decision = authorizer_.authorize(asked);
  if (decision.allowed) return;
  // The API server's text is `<resource>.<group> "<name>" is forbidden: ` and the authorizer's
  // reason, which RBAC leaves empty; the local server says there which permission was missing.
  throw ApiError(
      api_errors::forbidden(kind.plural, kind.gvk.group, route.name, forbidden_status(asked, decision.reason).message));
}

HttpReply RestHandler::patch(const KindInfo& kind, const Route& route, const RequestQuery& query,
                             const HttpRequest& request) const {
  const auto type = patch_type_of(request.content_type);
  if (!type) {
    return status_reply(unsupported_patch_type());
  }
  // An apply without fieldManager is refused by the cluster (422, as ValidatePatchOptions does).
  if (*type != PatchType::Apply && query.force) {
    throw ApiError(api_errors::invalid(
        "PatchOptions", "meta.k8s.io", "",
        {StatusCause{.type = "FieldValueForbidden",
                     .message = "force: Forbidden: may not be specified for non-apply patch",
                     .field = "force"}}));
  }
  std::vector<std::string> warnings;
  const ObjectKey key{route.namespace_, route.name};
  const int code = patch_reply_code(*cluster_, kind, key, *type, route.subresource);
  Json patched = cluster_->patch(kind, key, *type, request.body, route.subresource, write_options(query, &warnings));
  after_write(kind, route.name, query.dry_run);
  return with_warnings(object_reply(request, patched, code), warnings);
}

void RestHandler::admit_write_as(const HttpRequest& request, const UserInfo& user, const KindInfo& kind,
                                 const Route& route, const RequestQuery& query) const {
  const ObjectKey key{route.namespace_, route.name};
  std::optional<Json> old;
  if (!route.name.empty()) {
    try {
      old = cluster_->get(kind, key);
    } catch (const ApiError& e) {
      if (!is_not_found(e.status())) throw;
    }
  }
  Json object;
  if (request.method == "PATCH") {
    const auto type = patch_type_of(request.content_type);
    // The write itself answers 415, or 404 for a patch of nothing; an apply of nothing creates, and
    // is admitted as a create (prior stays null).
    if (!type || (!old && *type != PatchType::Apply)) return;
    WriteOptions dry_run = write_options(query);
    dry_run.dry_run = true;
    const WebhooksOffScope internal;  // the write itself calls them
    object = cluster_->patch(kind, key, *type, request.body, route.subresource, dry_run);
  } else {
    object = decode_body(request.content_type, request.body);
  }
  const Json* prior = request.method == "POST" || !old ? nullptr : &*old;
  confirm_rbac_write(authorizer_, user, kind.gvk, route.namespace_, object, prior);
  confirm_owner_references(authorizer_, *cluster_, user, kind, route.namespace_, object, prior);
}

HttpReply RestHandler::remove(const KindInfo& kind, const Route& route, const RequestQuery& query,
                              const HttpRequest& request) const {
  Json last = cluster_->remove(kind, ObjectKey{route.namespace_, route.name},
                               delete_options_of(request.content_type, request.body, query));
  after_write(kind, route.name, query.dry_run);
  return object_reply(request, last);
}

HttpReply RestHandler::remove_collection(const KindInfo& kind, const Route& route, const RequestQuery& query,
                                         const HttpRequest& request) const {
  validate_list_options(query);
  ListOptions opts = query.list;
  opts.namespace_ = route.namespace_;
  opts.resource_version.clear();
  std::vector<std::string> names;
  if (kind.gvk == crd_gvk) {
    for (const Json& item : cluster_->list(kind, opts)["items"]) names.push_back(meta_string(item, "name"));
  }
  cluster_->remove_collection(kind, opts, delete_options_of(request.content_type, request.body, query));
  for (const auto& name : names) after_write(kind, name, query.dry_run);
  return object_reply(
      request, Json{{"kind", "Status"}, {"apiVersion", "v1"}, {"metadata", Json::object()}, {"status", "Success"}});
}

void RestHandler::after_write(const KindInfo& kind, const std::string& name, bool dry_run) const {
  if (!dry_run && kind.gvk == crd_gvk && !name.empty()) crds_.sync(name);
}

}  // namespace rr::apiserver_detail
