// controller-runtime's pkg/healthz handler, minus HTTP: aggregate, verbose, exclude, single check.
#include "rr/manager/health_checks.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <utility>

namespace rr {
namespace {

bool passes(const HealthCheck& check) {
  try {
    return check();
  } catch (...) {
    return false;
  }
}

}  // namespace

void HealthChecks::add(std::string name, HealthCheck check) {
  if (name.empty() || name.find('/') != std::string::npos) {
    throw std::invalid_argument("invalid health check name \"" + name + "\"");
  }
  const std::lock_guard lock(mutex_);
  if (checks_.count(name) > 0) throw std::invalid_argument("health check \"" + name + "\" already exists");
  checks_.emplace(std::move(name), std::move(check));
}

std::vector<std::string> HealthChecks::names() const {
  const std::lock_guard lock(mutex_);
  std::vector<std::string> out;
  for (const auto& entry : checks_) out.push_back(entry.first);
  return out;
}

HealthResponse HealthChecks::serve(std::string_view sub_path, bool verbose,
                                   const std::vector<std::string>& excludes) const {
  std::map<std::string, HealthCheck, std::less<>> checks;
  {
    const std::lock_guard lock(mutex_);
    checks = checks_;  // run the checks without the lock: they may take a moment
  }
  std::string_view name = sub_path;
  while (!name.empty() && name.front() == '/') name.remove_prefix(1);
  while (!name.empty() && name.back() == '/') name.remove_suffix(1);

  HealthResponse response;
  if (!name.empty()) {  // one check
    const auto found = checks.find(name);
    if (found == checks.end() && !(checks.empty() && name == "ping")) {
      response.status = 404;
      response.body = "404 page not found\n";
      return response;
    }
    if (found == checks.end() || passes(found->second)) {
      response.body = "ok";
    } else {
      response.status = 500;
      response.body = "internal server error: " + std::string(name) + " check failed\n";
    }
    return response;
  }

  std::set<std::string, std::less<>> unknown_excludes(excludes.begin(), excludes.end());
  std::string lines;
  bool failed = false;
  for (const auto& [check_name, check] : checks) {  // std::map: sorted by name, as the Go handler sorts
    if (unknown_excludes.erase(check_name) > 0) {
      lines += "[+]" + check_name + " excluded: ok\n";
    } else if (passes(check)) {
      lines += "[+]" + check_name + " ok\n";
    } else {
      lines += "[-]" + check_name + " failed: reason withheld\n";
      failed = true;
    }
  }
  if (checks.empty()) lines += "[+]ping ok\n";  // the default check when none is registered

  if (failed) response.status = 500;
  if (!failed && !verbose) {
    response.body = "ok";
    return response;
  }
  response.body = lines;
  if (!unknown_excludes.empty()) {
    std::string names;
    for (const std::string& unknown : unknown_excludes) names += (names.empty() ? "\"" : ", \"") + unknown + "\"";
    response.body += "warn: some health checks cannot be excluded: no matches for " + names + "\n";
  }
  response.body += failed ? "healthz check failed\n" : "healthz check passed\n";
  return response;
}

}  // namespace rr
