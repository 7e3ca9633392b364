// Request and response bodies in the media types a Kubernetes API server speaks: JSON, YAML (one
// document) and, for built-in kinds, protobuf (`application/vnd.kubernetes.protobuf`: the k8s\0
// envelope around the object's message), which client-go's typed clients (kubectl create ...) send
// and ask for.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "http_types.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {

inline constexpr std::string_view kProtobuf = "application/vnd.kubernetes.protobuf";

// "application/json; charset=utf-8" -> "application/json" (parameters and blanks dropped).
std::string_view media_type(std::string_view header);

// A request body as a JSON object: 400 when it does not decode (or is not an object), 415 for
// another media type or a protobuf envelope of a kind rr::builtin does not know.
Json decode_body(std::string_view content_type, const std::string& body);

// The JSON text of the body a create or update on this thread is decoding (per thread, for the
// duration of the scope; nullptr for another media type): the order its members were written in,
// which strict decoding names unknown fields in (decoded_as_go).
class JsonBodyScope {
 public:
  JsonBodyScope(std::string_view content_type, const std::string& body);
  ~JsonBodyScope();
  JsonBodyScope(const JsonBodyScope&) = delete;
  JsonBodyScope& operator=(const JsonBodyScope&) = delete;
  static const std::string* current();  // nullptr outside a scope

 private:
  const std::string* previous_;
};

// The strict decoder's errors of a JSON or YAML body that decode_body accepted: its duplicated
// members (rr::validation's detectors; a protobuf body cannot repeat one).
std::vector<std::string> strict_body_errors(std::string_view content_type, const std::string& body);

// True when the Accept header prefers protobuf to JSON (its first media range the server serves, in
// q order, is protobuf without parameters).
bool accepts_protobuf_first(std::string_view accept);

// An object as the request asked: protobuf when it prefers it and the object's kind has a protobuf
// codec, JSON otherwise (client-go decodes either, by the Content-Type).
HttpReply object_reply(const HttpRequest& request, const Json& object, int code = 200);

}  // namespace rr::apiserver_detail
