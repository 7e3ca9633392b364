#include "http_types.hpp"

#include "rr/core/json.hpp"
#include "rr/wire_order/go_encoder.hpp"

namespace rr::apiserver_detail {

HttpReply status_reply(const Status& status) {
  HttpReply reply;
  reply.code = status.code > 0 ? status.code : 500;
  reply.body = wire_order::encode(status.to_json());
  if (status.retry_after_seconds) reply.headers.emplace_back("Retry-After", std::to_string(*status.retry_after_seconds));
  return reply;
}

std::string watch_event_line(const WatchEvent& event) {
  return wire_order::encode_watch_event(to_string(event.type), event.object);
}

}  // namespace rr::apiserver_detail
