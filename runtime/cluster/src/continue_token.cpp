#include "continue_token.hpp"

#include "rr/core/json.hpp"
#include "rr/core/time.hpp"

namespace rr::cluster_detail {

std::string ContinueToken::encode() const {
  const Json doc = {{"v", "meta.k8s.io/v1"}, {"rv", resource_version}, {"ns", last.namespace_}, {"name", last.name}};
  return Bytes::encode(doc.dump()).str();
}

std::optional<ContinueToken> ContinueToken::decode(std::string_view text) {
  auto raw = Bytes(std::string(text)).decode();
  if (!raw) return std::nullopt;
  const Json doc = Json::parse(*raw, nullptr, false);
  if (!doc.is_object() || doc.value("v", "") != "meta.k8s.io/v1") return std::nullopt;
  auto rv = doc.find("rv");
  auto ns = doc.find("ns");
  auto name = doc.find("name");
  if (rv == doc.end() || !rv->is_number_unsigned() || ns == doc.end() || !ns->is_string() || name == doc.end() ||
      !name->is_string()) {
    return std::nullopt;
  }
  return ContinueToken{rv->get<std::uint64_t>(), ObjectKey{ns->get<std::string>(), name->get<std::string>()}};
}

}  // namespace rr::cluster_detail
