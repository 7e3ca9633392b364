#include "exec_authenticator.hpp"

#include <unistd.h>

#include <cerrno>
#include <set>

#include "process_run.hpp"

extern char** environ;  // NOLINT: POSIX

namespace rr::http_detail {
namespace {

constexpr std::string_view kExecInfoEnv = "KUBERNETES_EXEC_INFO";
constexpr std::size_t kStderrInMessage = 2048;

// client-go's installHintVerboseHelp, then the kubeconfig's installHint.
std::string not_found_message(const ExecConfig& exec) {
  std::string message = "exec: executable " + exec.command + " not found";
  message +=
      "\n\nIt looks like you are trying to use a client-go credential plugin that is not installed.\n\n"
      "To learn more about this feature, consult the documentation available at:\n"
      "      https://kubernetes.io/docs/reference/access-authn-authz/authentication/#client-go-credential-plugins";
  if (!exec.install_hint.empty()) message += "\n\n" + exec.install_hint;
  return message;
}

// The end of what the plugin wrote to stderr (its last lines say what went wrong), trimmed.
std::string stderr_excerpt(const ProcessResult& result) {
  std::string text = result.err;
  const auto last = text.find_last_not_of(" \t\r\n");
  text.erase(last == std::string::npos ? 0 : last + 1);
  if (text.empty()) return {};
  if (text.size() > kStderrInMessage) text = "..." + text.substr(text.size() - kStderrInMessage);
  else if (result.err_truncated) text += "...";
  return ": stderr: " + text;
}

// The operator's environment, then the kubeconfig's env, then KUBERNETES_EXEC_INFO; a later
// entry replaces an earlier one of the same name, as Go's exec.Cmd dedups Env.
std::vector<std::string> plugin_environment(const ExecConfig& exec, const std::string& exec_info) {
  std::vector<std::string> added;
  for (const auto& var : exec.env) added.push_back(var.name + "=" + var.value);
  added.push_back(std::string(kExecInfoEnv) + "=" + exec_info);
  std::set<std::string, std::less<>> replaced;
  for (const auto& entry : added) replaced.insert(entry.substr(0, entry.find('=')));
  std::vector<std::string> out;
  for (char** entry = environ; entry != nullptr && *entry != nullptr; ++entry) {
    const std::string_view text(*entry);
    if (replaced.count(text.substr(0, text.find('='))) == 0) out.emplace_back(text);
  }
  std::set<std::string, std::less<>> seen;  // the last of duplicate kubeconfig names wins
  for (auto it = added.rbegin(); it != added.rend(); ++it)
    if (seen.insert(it->substr(0, it->find('='))).second) out.push_back(*it);
  return out;
}

// client-go passes the plugin's stderr through; it is shown once the plugin has ended.
void pass_stderr_through(const std::string& text) {
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(2, text.data() + written, text.size() - written);
    if (n <= 0 && errno != EINTR) return;
    if (n > 0) written += static_cast<std::size_t>(n);
  }
}

}  // namespace

ExecAuthenticator::ExecAuthenticator(ExecConfig exec, const RestConfig& cluster, std::chrono::milliseconds timeout)
    : exec_(std::move(exec)), exec_info_(exec_info_json(exec_, cluster)), timeout_(timeout) {}

std::shared_ptr<const ExecCredential> ExecAuthenticator::credentials() {
  std::lock_guard lock(mutex_);
  // client-go's credsExpired: expired once now is after the timestamp.
  if (cached_ && (!cached_->expiration || std::chrono::system_clock::now() <= *cached_->expiration)) return cached_;
  cached_ = std::make_shared<const ExecCredential>(run_plugin());
  return cached_;
}

void ExecAuthenticator::unauthorized(const std::shared_ptr<const ExecCredential>& used) {
  std::lock_guard lock(mutex_);
  if (used && used == cached_) cached_.reset();  // else it has been rotated already
}

ExecCredential ExecAuthenticator::run_plugin() const {
  if (exec_.interactive_mode == ExecInteractiveMode::Always) {
    // The operator never hands a plugin its stdin (it is not a terminal for the plugin).
    throw ExecPluginError("exec plugin " + exec_.command +
                          ": exec plugin cannot support interactive mode: standard input is not a terminal");
  }
  ProcessSpec spec{exec_.command, exec_.args, plugin_environment(exec_, exec_info_), timeout_};
  ProcessResult result;
  try {
    result = run_process(spec);
  } catch (const SpawnError& e) {
    if (e.errno_value() == ENOENT || e.errno_value() == EACCES || e.errno_value() == ENOTDIR)
      throw ExecPluginError(not_found_message(exec_));
    throw ExecPluginError("exec: executable " + exec_.command + " could not be started: " + e.what());
  } catch (const std::system_error& e) {
    throw ExecPluginError("exec: executable " + exec_.command + " could not be started: " + e.what());
  }
  if (result.timed_out) {
    throw ExecPluginError("exec: executable " + exec_.command + " did not finish within " +
                          std::to_string(timeout_.count()) + " ms and was killed" + stderr_excerpt(result));
  }
  if (result.signal != 0) {
    throw ExecPluginError("exec: executable " + exec_.command + " was killed by signal " +
                          std::to_string(result.signal) + stderr_excerpt(result));
  }
  if (result.exit_code != 0) {
    throw ExecPluginError("exec: executable " + exec_.command + " failed with exit code " +
                          std::to_string(result.exit_code) + stderr_excerpt(result));
  }
  pass_stderr_through(result.err);
  if (result.out_truncated) {
    throw ExecPluginError("exec plugin " + exec_.command + ": decoding stdout: more than " +
                          std::to_string(spec.max_output) + " bytes");
  }
  try {
    return parse_exec_credential(result.out, exec_.api_version);
  } catch (const ExecPluginError& e) {
    throw ExecPluginError("exec plugin " + exec_.command + ": " + e.what());
  }
}

}  // namespace rr::http_detail
