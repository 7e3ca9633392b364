// A request and its answer as the REST layer sees them, free of the HTTP library.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "rbac_authorizer.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/watch.hpp"

namespace rr::apiserver_detail {

struct HttpRequest {
  std::string method;  // "GET", "POST", ...
  std::string target;  // path and query, still percent-encoded
  std::string content_type;
  std::string body;
  std::string accept;  // the Accept header ("" when absent)
  UserInfo user{};     // who authenticated
  // The Impersonate-User, -Group, -Uid and -Extra-<key> headers (kubectl --as, --as-group, --as-uid).
  Impersonation impersonate{};
};

struct HttpReply {
  int code = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
  // Set for a watch: the body is this stream of events instead.
  std::unique_ptr<Watch> watch;
  // For a watch: applied to each event before it is sent (e.g. objects as Tables); may be empty.
  std::function<WatchEvent(WatchEvent)> transform_event;
  // Set for a followed log: the body is streamed (chunked) from this; false once it ended.
  std::function<bool(std::string& out)> text_stream;
};

// A metav1.Status body with its HTTP code (and Retry-After for a 429 that names one).
HttpReply status_reply(const Status& status);
// One line of a watch stream: {"type":"ADDED","object":{...}}\n
std::string watch_event_line(const WatchEvent& event);

}  // namespace rr::apiserver_detail
