#include "http_types.hpp"

#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

HttpReply status_reply(const Status& status) {
  HttpReply reply;
  reply.code = status.code > 0 ? status.code : 500;
  reply.body = status.to_json().dump();
  if (status.retry_after_seconds) reply.headers.emplace_back("Retry-After", std::to_string(*status.retry_after_seconds));
  return reply;
}

std::string watch_event_line(const WatchEvent& event) {
  Json line = {{"type", std::string(to_string(event.type))}, {"object", event.object}};
  std::string text = line.dump();
  text.push_back('\n');
  return text;
}

}  // namespace rr::apiserver_detail
