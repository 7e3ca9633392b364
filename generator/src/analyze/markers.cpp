#include "analyze/markers.hpp"

#include <string>

namespace rrgen {
namespace {

constexpr std::string_view kPrefix = "+kubebuilder:rbac:";

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

std::string unquote(std::string_view s) {
  s = trim(s);
  if (s.size() >= 2 && (s.front() == '"' || s.front() == '\'') && s.back() == s.front()) s = s.substr(1, s.size() - 2);
  return std::string(s);
}

// Splits `args` at the commas that are outside quotes and braces.
std::vector<std::string_view> split_arguments(std::string_view args) {
  std::vector<std::string_view> out;
  int depth = 0;
  char quote = 0;
  std::size_t start = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const char c = args[i];
    if (quote) {
      if (c == quote) quote = 0;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '{') {
      ++depth;
    } else if (c == '}') {
      --depth;
    } else if (c == ',' && depth == 0) {
      out.push_back(args.substr(start, i - start));
      start = i + 1;
    }
  }
  out.push_back(args.substr(start));
  return out;
}

// "a;b", "{a,b}", "a": the items, unquoted.
std::vector<std::string> list_value(std::string_view value) {
  value = trim(value);
  char sep = ';';
  if (value.size() >= 2 && value.front() == '{' && value.back() == '}') {
    value = value.substr(1, value.size() - 2);
    sep = ',';
  }
  std::vector<std::string> items;
  std::size_t start = 0;
  for (std::size_t i = 0; i <= value.size(); ++i) {
    if (i == value.size() || value[i] == sep) {
      items.push_back(unquote(value.substr(start, i - start)));
      start = i + 1;
    }
  }
  return items;
}

// The marker from `text` (what follows the prefix); "" on success, else what is wrong.
std::string parse_marker(std::string_view args, RbacMarker& marker) {
  bool have_verbs = false;
  for (std::string_view arg : split_arguments(args)) {
    arg = trim(arg);
    if (arg.empty()) continue;
    const std::size_t eq = arg.find('=');
    if (eq == std::string_view::npos) return "argument '" + std::string(arg) + "' has no '='";
    const std::string_view key = trim(arg.substr(0, eq));
    const std::string_view value = arg.substr(eq + 1);
    PolicyRule& rule = marker.rule;
    if (key == "groups") {
      rule.api_groups = list_value(value);
    } else if (key == "resources") {
      rule.resources = list_value(value);
    } else if (key == "resourceNames") {
      rule.resource_names = list_value(value);
    } else if (key == "verbs") {
      rule.verbs = list_value(value);
      have_verbs = true;
    } else if (key == "urls") {
      rule.non_resource_urls = list_value(value);
    } else if (key == "namespace") {
      marker.namespace_ = unquote(value);
    } else {
      return "unknown argument '" + std::string(key) +
             "' (controller-gen's are groups, resources, resourceNames, verbs, urls, namespace)";
    }
  }
  if (!have_verbs || marker.rule.verbs.empty()) return "no verbs= (a rule grants nothing without verbs)";
  if (marker.rule.resources.empty() && marker.rule.non_resource_urls.empty()) return "neither resources= nor urls=";
  if (!marker.rule.resources.empty() && marker.rule.api_groups.empty()) marker.rule.api_groups.push_back("");
  return {};
}

}  // namespace

std::vector<RbacMarker> read_rbac_markers(const std::string* file, std::string_view text, Diagnostics& diags) {
  std::vector<RbacMarker> markers;
  std::uint32_t line_no = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    ++line_no;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    const std::string_view line = text.substr(pos, end - pos);
    // Only in a // comment, as controller-gen reads them: the marker follows the slashes.
    if (const std::size_t slash = line.find("//"); slash != std::string_view::npos) {
      const std::string_view comment = trim(line.substr(slash + 2));
      if (comment.substr(0, kPrefix.size()) == kPrefix) {
        const auto column = static_cast<std::uint32_t>(line.find(kPrefix) + 1);
        RbacMarker marker;
        marker.location = Location{file, line_no, column};
        marker.text = std::string(trim(comment));
        if (std::string why = parse_marker(comment.substr(kPrefix.size()), marker); why.empty()) {
          markers.push_back(std::move(marker));
        } else {
          diags.error(marker.location, "rbac-marker-invalid", "RBAC marker: " + why);
        }
      }
    }
    if (end == text.size()) break;
    pos = end + 1;
  }
  return markers;
}

}  // namespace rrgen
