// Credentials from a kubeconfig exec plugin, as client-go's exec.Authenticator gives them: the
// plugin runs when credentials are first needed, again once they have expired, and again after
// the server answered 401 to the credentials still cached. One run at a time (the mutex is held
// while the plugin runs, as client-go's is); a failed run caches nothing, so the next request
// tries again.
// It lives in rr::http_client, not rr::rest_config: the transport asks it for credentials per
// request and tells it of 401s, while rest_config stays plain data read from files (no processes).
#pragma once
#include <chrono>
#include <memory>
#include <mutex>
#include <string>

#include "exec_credential.hpp"
#include "rr/rest_config/rest_config.hpp"

namespace rr::http_detail {

class ExecAuthenticator {
 public:
  // `cluster` is what spec.cluster describes (provideClusterInfo); `timeout` bounds one run.
  ExecAuthenticator(ExecConfig exec, const RestConfig& cluster, std::chrono::milliseconds timeout);

  // The cached credentials, or the plugin's new ones. Throws ExecPluginError naming the plugin.
  std::shared_ptr<const ExecCredential> credentials();
  // A 401 came back for `used`: unless the plugin ran again since, the next request runs it.
  void unauthorized(const std::shared_ptr<const ExecCredential>& used);

 private:
  ExecCredential run_plugin() const;

  const ExecConfig exec_;
  const std::string exec_info_;
  const std::chrono::milliseconds timeout_;
  std::mutex mutex_;
  std::shared_ptr<const ExecCredential> cached_;  // guarded by mutex_
};

}  // namespace rr::http_detail
