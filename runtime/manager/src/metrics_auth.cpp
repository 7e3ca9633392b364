// The secure metrics filter (see metrics_auth.hpp).
#include "metrics_auth.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <mutex>
#include <stdexcept>
#include <utility>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/error.hpp"

namespace rr {
namespace {

using Clock = std::chrono::steady_clock;
using http_server::Response;

const KindInfo kTokenReview{.gvk = {"authentication.k8s.io", "v1", "TokenReview"},
                            .plural = "tokenreviews",
                            .list_kind = "TokenReviewList",
                            .scope = Scope::Cluster};
const KindInfo kSubjectAccessReview{.gvk = {"authorization.k8s.io", "v1", "SubjectAccessReview"},
                                    .plural = "subjectaccessreviews",
                                    .list_kind = "SubjectAccessReviewList",
                                    .scope = Scope::Cluster};

// As Go's http.Error.
Response error_response(int status, const std::string& message) {
  Response response;
  response.status = status;
  response.body = message + "\n";
  response.fields.emplace_back("X-Content-Type-Options", "nosniff");
  return response;
}

// The token of "Authorization: Bearer <token>" as k8s.io/apiserver's bearertoken authenticator
// reads it (scheme case-insensitive, one space); "" when there is none.
std::string bearer_token(const http_server::Request& request) {
  std::string_view value = request.field("authorization");
  const auto space = value.find(' ');
  if (space == std::string_view::npos) return {};
  std::string scheme(value.substr(0, space));
  std::transform(scheme.begin(), scheme.end(), scheme.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (scheme != "bearer") return {};
  value.remove_prefix(space + 1);
  return std::string(value.substr(0, value.find(' ')));
}

// A bounded map of answers that expire; the oldest entry goes first when it is full.
template <class Value>
class TtlCache {
 public:
  explicit TtlCache(std::size_t max_entries) : max_entries_(max_entries) {}

  std::optional<Value> get(const std::string& key) {
    const std::lock_guard lock(mutex_);
    const auto found = entries_.find(key);
    if (found == entries_.end()) return std::nullopt;
    if (found->second.expires <= Clock::now()) {
      entries_.erase(found);
      return std::nullopt;
    }
    return found->second.value;
  }

  void put(const std::string& key, Value value, Clock::duration ttl) {
    if (ttl <= Clock::duration::zero()) return;
    const std::lock_guard lock(mutex_);
    if (entries_.size() >= max_entries_ && !entries_.contains(key)) {
      const auto expired = std::erase_if(entries_,
                                         [now = Clock::now()](const auto& e) { return e.second.expires <= now; });
      if (expired == 0 && !entries_.empty()) {
        entries_.erase(std::min_element(entries_.begin(), entries_.end(), [](const auto& a, const auto& b) {
          return a.second.expires < b.second.expires;
        }));
      }
    }
    entries_[key] = Entry{std::move(value), Clock::now() + ttl};
  }

 private:
  struct Entry {
    Value value;
    Clock::time_point expires;
  };
  std::size_t max_entries_;
  std::mutex mutex_;
  std::map<std::string, Entry> entries_;
};

// status.user of a TokenReview: what the SubjectAccessReview asks about.
struct User {
  std::string name, uid;
  Json groups = Json::array();
  Json extra = Json::object();
};

std::string join_key(std::initializer_list<std::string> parts) {
  std::string key;
  for (const auto& part : parts) key += part + '\0';
  return key;
}

}  // namespace

struct MetricsAuth::Impl {
  std::shared_ptr<Client> api;
  Logger log;
  MetricsAuthOptions options;
  TtlCache<std::optional<User>> tokens{options.max_entries};  // nullopt: not authenticated
  TtlCache<bool> decisions{options.max_entries};

  Impl(std::shared_ptr<Client> client, Logger logger, MetricsAuthOptions opts)
      : api(std::move(client)), log(std::move(logger)), options(opts) {}

  // The user of `token`, nullopt when the API server does not authenticate it; throws when the
  // review cannot be made.
  std::optional<User> authenticate(const std::string& token) {
    if (auto cached = tokens.get(token)) return *cached;
    const Json review = {{"apiVersion", "authentication.k8s.io/v1"},
                         {"kind", "TokenReview"},
                         {"metadata", {{"creationTimestamp", nullptr}}},
                         {"spec", {{"token", token}}}};
    const Json answer = api->create(kTokenReview, review);
    const Json status = answer.value("status", Json::object());
    std::optional<User> user;
    if (status.value("authenticated", false)) {
      const Json info = status.value("user", Json::object());
      user = User{info.value("username", std::string()), info.value("uid", std::string()),
                  info.value("groups", Json::array()), info.value("extra", Json::object())};
    } else if (const std::string error = status.value("error", std::string()); !error.empty()) {
      throw std::runtime_error(error);  // upstream's webhook authenticator: an error, not cached
    }
    tokens.put(token, user, options.token_ttl);
    return user;
  }

  bool authorize(const User& user, const std::string& verb, const std::string& path) {
    const std::string key = join_key({user.name, user.uid, user.groups.dump(), user.extra.dump(), verb, path});
    if (auto cached = decisions.get(key)) return *cached;
    Json spec = {
        {"nonResourceAttributes", {{"path", path}, {"verb", verb}}}, {"user", user.name}, {"groups", user.groups}};
    if (!user.uid.empty()) spec["uid"] = user.uid;
    if (!user.extra.empty()) spec["extra"] = user.extra;
    const Json review = {{"apiVersion", "authorization.k8s.io/v1"},
                         {"kind", "SubjectAccessReview"},
                         {"metadata", {{"creationTimestamp", nullptr}}},
                         {"spec", spec}};
    const Json status = api->create(kSubjectAccessReview, review).value("status", Json::object());
    const bool allowed = status.value("allowed", false);
    const bool denied = status.value("denied", false);
    if (allowed && denied) {
      throw std::runtime_error("webhook subject access review returned both allow and deny response");
    }
    decisions.put(key, allowed, allowed ? options.allow_ttl : options.deny_ttl);
    if (!allowed)
      log.with("user", user.name).with("reason", status.value("reason", std::string())).debug("Authorization denied");
    return allowed;
  }
};

MetricsAuth::MetricsAuth(std::shared_ptr<Client> api, Logger log, MetricsAuthOptions options) {
  if (!api) throw std::invalid_argument("secure metrics need an API client (or --metrics-secure=false)");
  impl_ = std::make_unique<Impl>(std::move(api), std::move(log), options);
}

MetricsAuth::~MetricsAuth() = default;

std::optional<Response> MetricsAuth::check(const http_server::Request& request, const std::string& path) {
  const std::string token = bearer_token(request);
  if (token.empty()) return error_response(401, "Unauthorized");
  std::optional<User> user;
  try {
    user = impl_->authenticate(token);
  } catch (const std::exception& e) {
    impl_->log.error(Error::make(e.what()), "Authentication failed");
    return error_response(401, "Authentication failed");
  }
  if (!user) return error_response(401, "Authentication failed");  // bearertoken's "invalid bearer token"
  std::string verb = request.method;
  std::transform(verb.begin(), verb.end(), verb.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  try {
    if (!impl_->authorize(*user, verb, path)) return error_response(403, "Authorization denied for user " + user->name);
  } catch (const std::exception& e) {
    const std::string message = "Authorization for user " + user->name + " failed";
    impl_->log.error(Error::make(e.what()), message);
    return error_response(500, message);
  }
  return std::nullopt;
}

}  // namespace rr
