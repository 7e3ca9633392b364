// GET pods/<name>/log: the API server's LogREST over the node's log source (rr::node::PodLogSource).
// The container is chosen and checked here as the API server does; a pod no node runs (a
// simulated one) has an empty log.
#include <algorithm>
#include <charconv>

#include "rest_handler.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/node/pod_logs.hpp"

namespace rr::apiserver_detail {

namespace {

const std::string* log_param(const QueryParams& params, const std::string& key) {
  auto [first, last] = params.equal_range(key);
  return first == last ? nullptr : &std::prev(last)->second;
}

bool log_bool(const QueryParams& params, const std::string& key) {
  const std::string* v = log_param(params, key);
  if (!v || v->empty()) return false;
  if (auto parsed = parse_go_bool(*v)) return *parsed;
  throw ApiError(api_errors::bad_request("invalid boolean value for " + key + ": \"" + *v + "\""));
}

std::optional<std::int64_t> log_int(const QueryParams& params, const std::string& key) {
  const std::string* v = log_param(params, key);
  if (!v || v->empty()) return std::nullopt;
  std::int64_t out = 0;
  auto [end, ec] = std::from_chars(v->data(), v->data() + v->size(), out);
  if (ec != std::errc() || end != v->data() + v->size()) {
    throw ApiError(api_errors::bad_request("invalid value for " + key + ": \"" + *v + "\": must be an integer"));
  }
  return out;
}

}  // namespace

void RestHandler::set_pod_logs(std::shared_ptr<node::PodLogSource> source) {
  std::lock_guard lock(pod_logs_->mutex);
  pod_logs_->source = std::move(source);
}

HttpReply RestHandler::pod_log(const HttpRequest& request, const KindInfo& kind, const Route& route,
                               const QueryParams& params) const {
  if (request.method != "GET") return status_reply(api_errors::method_not_supported("pods/log", request.method));
  node::PodLogOptions options;
  options.container = log_param(params, "container") ? *log_param(params, "container") : std::string();
  options.follow = log_bool(params, "follow");
  options.previous = log_bool(params, "previous");
  options.timestamps = log_bool(params, "timestamps");
  options.tail_lines = log_int(params, "tailLines");
  options.since_seconds = log_int(params, "sinceSeconds");
  options.limit_bytes = log_int(params, "limitBytes");
  // ValidatePodLogOptions
  std::vector<FieldError> errors;
  auto must = [&](const char* field, const std::optional<std::int64_t>& v, std::int64_t min, const char* what) {
    if (v && *v < min) {
      errors.push_back({field, FieldErrorType::Invalid,
                        std::string(field) + ": Invalid value: " + std::to_string(*v) + ": " + what});
    }
  };
  must("tailLines", options.tail_lines, 0, "must be greater than or equal to 0");
  must("limitBytes", options.limit_bytes, 1, "must be greater than 0");
  must("sinceSeconds", options.since_seconds, 1, "must be greater than 0");
  if (!errors.empty())
    return status_reply(api_errors::invalid("PodLogOptions", "", route.name, api_errors::causes_of(errors)));

  const Json pod = cluster_->get(kind, ObjectKey{route.namespace_, route.name});
  // The API server's container choice (pod.LogLocation).
  std::vector<std::string> names;
  for (const Json& c : pod.value("/spec/containers"_json_pointer, Json::array())) names.push_back(c.value("name", ""));
  for (const Json& c : pod.value("/spec/initContainers"_json_pointer, Json::array()))
    names.push_back(c.value("name", ""));
  if (options.container.empty()) {
    const std::string annotated = pod.value(
        "/metadata/annotations/kubectl.kubernetes.io~1default-container"_json_pointer, std::string());
    if (!annotated.empty()) options.container = annotated;
    else if (names.size() == 1) options.container = names.front();
    else {
      std::string list;
      for (const auto& n : names) list += (list.empty() ? "" : " ") + n;
      return status_reply(api_errors::bad_request("a container name must be specified for pod " + route.name +
                                                  ", choose one of: [" + list + "]"));
    }
  }
  if (std::find(names.begin(), names.end(), options.container) == names.end()) {
    return status_reply(
        api_errors::bad_request("container " + options.container + " is not valid for pod " + route.name));
  }
  std::shared_ptr<node::PodLogSource> source;
  {
    std::lock_guard lock(pod_logs_->mutex);
    source = pod_logs_->source;
  }
  HttpReply reply;
  reply.content_type = "text/plain";
  std::shared_ptr<node::PodLogStream> stream;
  try {
    if (source) stream = source->open(pod, options);
  } catch (const std::invalid_argument& e) {
    return status_reply(api_errors::bad_request(e.what()));
  }
  if (!stream) return reply;  // not run by a node: an empty log
  if (!options.follow) {
    while (stream->next(reply.body, std::chrono::milliseconds(0))) {
    }
    return reply;
  }
  reply.text_stream = [stream](std::string& out) { return stream->next(out, std::chrono::milliseconds(200)); };
  return reply;
}

}  // namespace rr::apiserver_detail
