// ServiceAccount tokens as the API server issues and accepts them: the TokenRequest subresource
// (POST serviceaccounts/<name>/token, what `kubectl create token` calls) returns a JWT for
// system:serviceaccount:<ns>:<name>; a request bearing it authenticates as that user, in the
// groups system:serviceaccounts and system:serviceaccounts:<ns>, for as long as the token has not
// expired and the ServiceAccount (and the object the token is bound to, if any) still exists with
// the UID the token names. Tokens are signed with HS256 under a key made at start-up, so they die
// with the server, as a throw-away cluster's should.
#pragma once
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rbac_authorizer.hpp"
#include "rr/core/json.hpp"

namespace rr {
class Cluster;
}

namespace rr::apiserver_detail {

// The audience tokens get when the request names none, and the one the server accepts.
inline constexpr std::string_view api_server_audience = "https://kubernetes.default.svc.cluster.local";

class ServiceAccountTokens {
 public:
  using Clock = std::function<std::chrono::system_clock::time_point()>;
  // `now`: the clock of expiry (the system clock when empty; tests pass their own).
  explicit ServiceAccountTokens(std::shared_ptr<Cluster> cluster, Clock now = {});

  // Answers a TokenRequest for the ServiceAccount `ns`/`name`: the request with spec defaulted
  // (audiences, expirationSeconds 3600) and status.token/expirationTimestamp filled. ApiError 404
  // when the ServiceAccount (or the bound object) does not exist, 422 on an invalid spec.
  Json issue(const std::string& ns, const std::string& name, const Json& token_request) const;

  // The user a token stands for; nullopt when it is not one of this server's tokens, has expired,
  // is not for the API server's audience, or what it is bound to is gone.
  std::optional<UserInfo> authenticate(std::string_view token) const;
  // The same for a TokenReview that names its audiences: the user (with the ServiceAccount's UID,
  // and pod-name/pod-uid extras for a token bound to a Pod) and the audiences of the token among
  // `audiences`; nullopt when none is (or the token is not valid).
  std::optional<std::pair<UserInfo, std::vector<std::string>>> authenticate(
      std::string_view token, const std::vector<std::string>& audiences) const;

 private:
  std::string sign(std::string_view signing_input) const;
  bool object_exists(std::string_view api_version, std::string_view kind, const std::string& ns,
                     const std::string& name, const std::string& uid) const;

  std::shared_ptr<Cluster> cluster_;
  Clock now_;
  std::string key_;  // 32 random bytes
};

// The groups of a ServiceAccount user, as the API server gives them (system:authenticated apart).
std::vector<std::string> service_account_groups(std::string_view ns);

}  // namespace rr::apiserver_detail
