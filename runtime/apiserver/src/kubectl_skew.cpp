#include "rr/apiserver/kubectl_skew.hpp"

#include <cstdio>
#include <cstdlib>
#include <string_view>

#include "discovery.hpp"
#include "rr/core/json.hpp"

namespace rr::apiserver_detail {
namespace {

std::string run_and_read(const std::string& command) {
  std::string out;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (pipe == nullptr) return out;
  char buffer[4096];
  for (std::size_t got; (got = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, got);
  ::pclose(pipe);
  return out;
}

// "32", or "32+" as some distributions' builds report it.
std::optional<int> minor_of(std::string_view text) {
  int minor = 0;
  std::size_t digits = 0;
  for (; digits < text.size() && text[digits] >= '0' && text[digits] <= '9' && digits < 4; ++digits) {
    minor = minor * 10 + (text[digits] - '0');
  }
  if (digits == 0) return std::nullopt;
  return minor;
}

}  // namespace

std::optional<std::string> kubectl_skew_note(const std::string& kubectl, int server_minor) {
  const std::string text = run_and_read(kubectl + " version --client -o json 2>/dev/null");
  const Json document = Json::parse(text, nullptr, false);
  if (document.is_discarded() || !document.is_object()) return std::nullopt;
  const Json& client = document.value("clientVersion", Json::object());
  if (!client.is_object() || !client.value("minor", Json()).is_string()) return std::nullopt;
  const auto minor = minor_of(client["minor"].get<std::string>());
  if (!minor || std::abs(*minor - server_minor) <= 1) return std::nullopt;
  const std::string version = client.value("gitVersion", "v1." + std::to_string(*minor));
  return "note: kubectl " + version + " (the one on PATH) is " + std::to_string(std::abs(*minor - server_minor)) +
         " minor versions from this server's 1." + std::to_string(server_minor) +
         "; `kubectl version` warns about the skew. kubectl supports one minor version either way: for "
         "exact behaviour use kubectl 1." +
         std::to_string(server_minor - 1) + " to 1." + std::to_string(server_minor + 1) + ".";
}

}  // namespace rr::apiserver_detail

namespace rr {

std::optional<std::string> kubectl_skew_note() {
  const int server_minor = std::stoi(apiserver_detail::version_document()["minor"].get<std::string>());
  return apiserver_detail::kubectl_skew_note("kubectl", server_minor);
}

}  // namespace rr
