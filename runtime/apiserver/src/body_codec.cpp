#include "body_codec.hpp"

#include "builtin_resources.hpp"
#include "media_negotiation.hpp"
#include "rr/client/api_error.hpp"
#include "rr/core/protobuf.hpp"
#include "rr/validation/decoding.hpp"
#include "rr/wire_order/go_encoder.hpp"
#include "yaml_json.hpp"

namespace rr::apiserver_detail {

namespace {

ApiError bad_body(const std::string& why) { return ApiError(api_errors::bad_request("error decoding body: " + why)); }

Json parse_json(const std::string& body) {
  try {
    return Json::parse(body);
  } catch (const Json::parse_error& e) {
    throw bad_body(e.what());
  }
}

ApiError unsupported() {
  return ApiError(api_errors::unsupported_media_type(
      std::vector<std::string>{"application/json", "application/yaml", std::string(kProtobuf)}));
}

Json decode_protobuf(const std::string& body) {
  PbEnvelope envelope;
  try {
    envelope = decode_envelope(body);
  } catch (const DecodeError& e) {
    throw bad_body(e.what());
  }
  const KindCodec* codec = builtin_codec(envelope.api_version, envelope.kind);
  if (!codec || !codec->pb_to_json) throw unsupported();  // custom resources have no protobuf encoding
  try {
    return parse_json(codec->pb_to_json(body));
  } catch (const DecodeError& e) {
    throw bad_body(e.what());
  }
}

}  // namespace

std::string_view media_type(std::string_view header) {
  std::string_view media = header.substr(0, header.find(';'));
  while (!media.empty() && media.front() == ' ') media.remove_prefix(1);
  while (!media.empty() && media.back() == ' ') media.remove_suffix(1);
  return media;
}

Json decode_body(std::string_view content_type, const std::string& body) {
  const std::string_view media = media_type(content_type);
  Json object;
  if (media.empty() || media == "application/json" || media == "*/*") {
    object = parse_json(body);
  } else if (media == "application/yaml") {
    std::vector<Json> docs;
    try {
      docs = yaml_documents(body);
    } catch (const std::runtime_error& e) {
      throw bad_body(e.what());
    }
    if (docs.size() != 1) throw bad_body("expected one YAML document");
    object = std::move(docs.front());
  } else if (media == kProtobuf) {
    object = decode_protobuf(body);
  } else {
    throw unsupported();
  }
  if (!object.is_object()) throw ApiError(api_errors::bad_request("the body of the request is not a JSON object"));
  return object;
}

namespace {
thread_local const std::string* json_body = nullptr;
}  // namespace

JsonBodyScope::JsonBodyScope(std::string_view content_type, const std::string& body) : previous_(json_body) {
  const std::string_view media = media_type(content_type);
  json_body = media.empty() || media == "application/json" || media == "*/*" ? &body : nullptr;
}

JsonBodyScope::~JsonBodyScope() { json_body = previous_; }

const std::string* JsonBodyScope::current() { return json_body; }

std::vector<std::string> strict_body_errors(std::string_view content_type, const std::string& body) {
  const std::string_view media = media_type(content_type);
  if (media == "application/yaml") {
    if (auto error = validation::duplicate_yaml_keys(body)) return {std::move(*error)};
    return {};
  }
  if (media == kProtobuf) return {};
  return validation::duplicate_json_fields(body);
}

bool accepts_protobuf_first(std::string_view accept) {
  // In the API server's order of the media ranges (q first): parse_accept.
  for (const AcceptClause& clause : parse_accept(accept)) {
    const std::string media = clause.type + "/" + clause.subtype;
    // A conversion (as=Table, as=PartialObjectMetadata) or a stream is another answer: not ours to pick here.
    if (media == kProtobuf) return clause.params.empty();
    if (media == "application/json" || media == "application/yaml" || media == "*/*" || media == "application/*")
      return false;
  }
  return false;
}

HttpReply object_reply(const HttpRequest& request, const Json& object, int code) {
  HttpReply reply;
  reply.code = code;
  if (accepts_protobuf_first(request.accept)) {
    const std::string api_version = object.value("apiVersion", std::string());
    const std::string kind = object.value("kind", std::string());
    if (const KindCodec* codec = builtin_codec(api_version, kind); codec && codec->pb_from_json) {
      reply.content_type = std::string(kProtobuf);
      reply.body = codec->pb_from_json(object.dump());
      return reply;
    }
  }
  reply.body = wire_order::encode(object);
  return reply;
}

}  // namespace rr::apiserver_detail
