// ServiceAccount tokens: TokenRequest answers and bearer-token authentication (see the header).
#include "service_account_tokens.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>

#include "json_members.hpp"
#include "rr/client/api_error.hpp"
#include "rr/client/kind.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/core/errors.hpp"
#include "rr/core/time.hpp"

namespace rr::apiserver_detail {

namespace {

constexpr std::int64_t default_expiration_seconds = 3600;
constexpr std::int64_t min_expiration_seconds = 600;        // ten minutes, as the API server requires
constexpr std::int64_t max_expiration_seconds = 1LL << 32;  // "2^32 seconds"
constexpr std::string_view issuer = "https://kubernetes.default.svc.cluster.local";

// base64url without padding (RFC 7515 §2): standard base64 (rr::Bytes) with two letters swapped.
std::string b64url_encode(std::string_view raw) {
  std::string text = Bytes::encode(raw).str();
  while (!text.empty() && text.back() == '=') text.pop_back();
  for (char& c : text) c = c == '+' ? '-' : c == '/' ? '_' : c;
  return text;
}

std::optional<std::string> b64url_decode(std::string_view text) {
  std::string standard(text);
  for (char& c : standard) {
    if (c == '+' || c == '/' || c == '=') return std::nullopt;  // not base64url
    c = c == '-' ? '+' : c == '_' ? '/' : c;
  }
  standard.append((4 - standard.size() % 4) % 4, '=');
  return Bytes(std::move(standard)).decode();
}

std::int64_t unix_seconds(std::chrono::system_clock::time_point t) {
  return std::chrono::duration_cast<std::chrono::seconds>(t.time_since_epoch()).count();
}

// A member that is present and not null.
const Json* member(const Json& object, const char* name) {
  if (!object.is_object()) return nullptr;
  const auto it = object.find(name);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

// The bound object of spec.boundObjectRef: a Pod, Secret or Node (the API server's choices).
struct BoundObject {
  std::string api_version, kind, name, uid;
};

std::optional<BoundObject> bound_object_of(const Json& spec, const std::string& sa_name) {
  const Json* ref = member(spec, "boundObjectRef");
  if (!ref) return std::nullopt;
  BoundObject bound{member_string(*ref, "apiVersion"), member_string(*ref, "kind"), member_string(*ref, "name"),
                    member_string(*ref, "uid")};
  if (bound.api_version.empty()) bound.api_version = "v1";
  const bool known = bound.api_version == "v1" &&
                     (bound.kind == "Pod" || bound.kind == "Secret" || bound.kind == "Node");
  if (!known) {
    FieldError e{"spec.boundObjectRef.kind", FieldErrorType::NotSupported,
                 "spec.boundObjectRef.kind: Unsupported value: \"" + bound.kind +
                     "\": supported values: \"Pod\", \"Node\", \"Secret\""};
    throw ApiError(api_errors::invalid("TokenRequest", "authentication.k8s.io", sa_name, api_errors::causes_of({e})));
  }
  return bound;
}

bool constant_time_equal(std::string_view a, std::string_view b) {
  return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace

std::vector<std::string> service_account_groups(std::string_view ns) {
  return {"system:serviceaccounts", "system:serviceaccounts:" + std::string(ns)};
}

ServiceAccountTokens::ServiceAccountTokens(std::shared_ptr<Cluster> cluster, Clock now)
    : cluster_(std::move(cluster)),
      now_(now ? std::move(now) : Clock([] { return std::chrono::system_clock::now(); })) {
  std::array<unsigned char, 32> key{};
  if (RAND_bytes(key.data(), static_cast<int>(key.size())) != 1) {
    throw std::runtime_error("ServiceAccountTokens: RAND_bytes failed");
  }
  key_.assign(reinterpret_cast<const char*>(key.data()), key.size());
}

std::string ServiceAccountTokens::sign(std::string_view signing_input) const {
  unsigned char mac[EVP_MAX_MD_SIZE];
  unsigned int length = 0;
  if (!HMAC(EVP_sha256(), key_.data(), static_cast<int>(key_.size()),
            reinterpret_cast<const unsigned char*>(signing_input.data()), signing_input.size(), mac, &length)) {
    throw std::runtime_error("ServiceAccountTokens: HMAC failed");
  }
  return b64url_encode(std::string_view(reinterpret_cast<const char*>(mac), length));
}

bool ServiceAccountTokens::object_exists(std::string_view api_version, std::string_view kind, const std::string& ns,
                                         const std::string& name, const std::string& uid) const {
  const auto info = cluster_->find_kind(GroupVersionKind::from(api_version, kind));
  if (!info) return false;
  try {
    const Json object = cluster_->get(*info, ObjectKey{info->namespaced() ? ns : std::string(), name});
    return uid.empty() || object.value("/metadata/uid"_json_pointer, std::string()) == uid;
  } catch (const ApiError&) {
    return false;
  }
}

Json ServiceAccountTokens::issue(const std::string& ns, const std::string& name, const Json& token_request) const {
  const auto sa_kind = cluster_->find_kind(GroupVersionKind{"", "v1", "ServiceAccount"});
  if (!sa_kind) throw ApiError(api_errors::not_found("serviceaccounts", "", name));
  const Json account = cluster_->get(*sa_kind, ObjectKey{ns, name});  // 404 as the API server's
  const std::string sa_uid = account.value("/metadata/uid"_json_pointer, std::string());

  Json spec = token_request.is_object() && token_request.contains("spec") ? token_request["spec"] : Json::object();
  if (!spec.is_object()) spec = Json::object();
  std::int64_t expiration = default_expiration_seconds;
  if (const Json* seconds = member(spec, "expirationSeconds")) {
    if (!seconds->is_number_integer()) {
      throw ApiError(api_errors::bad_request("spec.expirationSeconds: an integer is expected"));
    }
    expiration = seconds->get<std::int64_t>();
  }
  std::vector<FieldError> errors;
  if (expiration < min_expiration_seconds) {
    errors.push_back({"spec.expirationSeconds", FieldErrorType::Invalid,
                      "spec.expirationSeconds: Invalid value: " + std::to_string(expiration) +
                          ": may not specify a duration less than 10 minutes"});
  } else if (expiration > max_expiration_seconds) {
    errors.push_back({"spec.expirationSeconds", FieldErrorType::Invalid,
                      "spec.expirationSeconds: Invalid value: " + std::to_string(expiration) +
                          ": may not specify a duration larger than 2^32 seconds"});
  }
  if (!errors.empty()) {
    throw ApiError(api_errors::invalid("TokenRequest", "authentication.k8s.io", name, api_errors::causes_of(errors)));
  }
  Json audiences = member(spec, "audiences") ? spec["audiences"] : Json::array();
  if (!audiences.is_array() || audiences.empty()) audiences = Json::array({std::string(api_server_audience)});

  Json private_claims = {{"namespace", ns}, {"serviceaccount", {{"name", name}, {"uid", sa_uid}}}};
  if (auto bound = bound_object_of(spec, name)) {
    const auto info = cluster_->find_kind(GroupVersionKind::from(bound->api_version, bound->kind));
    if (!info) throw ApiError(api_errors::not_found(bound->kind, "", bound->name));
    const Json object = cluster_->get(*info, ObjectKey{info->namespaced() ? ns : std::string(), bound->name});
    const std::string uid = object.value("/metadata/uid"_json_pointer, std::string());
    if (!bound->uid.empty() && bound->uid != uid) {
      Status conflict = api_errors::conflict(
          info->plural, "", bound->name,
          "the UID in the bound object reference (" + bound->uid +
              ") does not match the UID in record. The object might have been deleted and then recreated");
      throw ApiError(std::move(conflict));
    }
    std::string claim = bound->kind;
    claim[0] = static_cast<char>(claim[0] - 'A' + 'a');  // "pod", "secret", "node"
    private_claims[claim] = {{"name", bound->name}, {"uid", uid}};
  }

  const auto now = now_();
  const std::int64_t issued = unix_seconds(now);
  const Json claims = {{"aud", audiences},
                       {"exp", issued + expiration},
                       {"iat", issued},
                       {"iss", issuer},
                       {"kubernetes.io", private_claims},
                       {"nbf", issued},
                       {"sub", service_account_user(ns, name)}};
  const std::string signing_input = b64url_encode(Json{{"alg", "HS256"}, {"typ", "JWT"}}.dump()) + "." +
                                    b64url_encode(claims.dump());
  const std::string token = signing_input + "." + sign(signing_input);

  spec["audiences"] = audiences;
  spec["expirationSeconds"] = expiration;
  if (!spec.contains("boundObjectRef")) spec["boundObjectRef"] = nullptr;
  Json answer = {
      {"kind", "TokenRequest"},
      {"apiVersion", "authentication.k8s.io/v1"},
      {"metadata", {{"name", name}, {"namespace", ns}, {"creationTimestamp", nullptr}}},
      {"spec", spec},
      {"status",
       {{"token", token}, {"expirationTimestamp", Time::from(now + std::chrono::seconds(expiration)).str()}}}};
  return answer;
}

std::optional<UserInfo> ServiceAccountTokens::authenticate(std::string_view token) const {
  auto found = authenticate(token, {std::string(api_server_audience)});
  if (!found) return std::nullopt;
  return found->first;
}

std::optional<std::pair<UserInfo, std::vector<std::string>>> ServiceAccountTokens::authenticate(
    std::string_view token, const std::vector<std::string>& audiences) const {
  const auto first = token.find('.');
  const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
  if (second == std::string_view::npos) return std::nullopt;
  if (!constant_time_equal(sign(token.substr(0, second)), token.substr(second + 1))) return std::nullopt;
  const auto payload = b64url_decode(token.substr(first + 1, second - first - 1));
  if (!payload) return std::nullopt;
  const Json claims = Json::parse(*payload, nullptr, false);
  if (!claims.is_object()) return std::nullopt;  // cannot happen for a token we signed; kept as a guard
  const std::int64_t now = unix_seconds(now_());
  if (claims.value("exp", std::int64_t{0}) <= now || claims.value("nbf", std::int64_t{0}) > now) return std::nullopt;
  const Json token_audiences = claims.value("aud", Json::array());
  std::vector<std::string> matched;
  for (const auto& audience : audiences) {
    if (std::find(token_audiences.begin(), token_audiences.end(), Json(audience)) != token_audiences.end()) {
      matched.push_back(audience);
    }
  }
  if (matched.empty()) return std::nullopt;

  const Json k8s = claims.value("kubernetes.io", Json::object());
  const std::string ns = k8s.value("namespace", std::string());
  const Json account = k8s.value("serviceaccount", Json::object());
  const std::string name = account.value("name", std::string());
  if (!object_exists("v1", "ServiceAccount", ns, name, account.value("uid", std::string()))) return std::nullopt;
  for (const auto& [claim, kind] : {std::pair{"pod", "Pod"}, {"secret", "Secret"}, {"node", "Node"}}) {
    if (!k8s.contains(claim)) continue;
    const Json& bound = k8s[claim];
    if (!object_exists("v1", kind, ns, bound.value("name", std::string()), bound.value("uid", std::string()))) {
      return std::nullopt;
    }
  }
  std::vector<std::string> groups = service_account_groups(ns);
  groups.emplace_back(authenticated_group);
  UserInfo user{service_account_user(ns, name), std::move(groups)};
  user.uid = account.value("uid", std::string());
  if (k8s.contains("pod")) {  // as the API server's ServiceAccount authenticator reports a pod-bound token
    user.extra["authentication.kubernetes.io/pod-name"] = {k8s["pod"].value("name", std::string())};
    user.extra["authentication.kubernetes.io/pod-uid"] = {k8s["pod"].value("uid", std::string())};
  }
  return std::pair{std::move(user), std::move(matched)};
}

}  // namespace rr::apiserver_detail
