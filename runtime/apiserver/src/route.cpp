#include "route.hpp"

#include <vector>

namespace rr::apiserver_detail {

namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

std::string percent_decode(std::string_view text, bool plus_is_space) {
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '%' && i + 2 < text.size()) {
      const int hi = hex_value(text[i + 1]);
      const int lo = hex_value(text[i + 2]);
      if (hi >= 0 && lo >= 0) {
        out.push_back(static_cast<char>(hi * 16 + lo));
        i += 2;
        continue;
      }
    }
    out.push_back(plus_is_space && c == '+' ? ' ' : c);
  }
  return out;
}

std::vector<std::string_view> split_path(std::string_view path) {
  std::vector<std::string_view> parts;
  std::size_t start = 0;
  while (start <= path.size()) {
    const std::size_t slash = path.find('/', start);
    const std::size_t end = slash == std::string_view::npos ? path.size() : slash;
    parts.push_back(path.substr(start, end - start));
    if (slash == std::string_view::npos) break;
    start = slash + 1;
  }
  return parts;
}

// The resource part after a group version: [namespaces/<ns>/]<resource>[/<name>[/<subresource>]].
Route resource_route(std::string group, std::string version, const std::vector<std::string_view>& rest) {
  Route route;
  route.group = std::move(group);
  route.version = std::move(version);
  route.endpoint = Endpoint::Resource;
  auto take = [&](std::size_t at, std::size_t count) {
    route.resource = std::string(rest[at]);
    if (count > 1) route.name = std::string(rest[at + 1]);
    if (count > 2) route.subresource = std::string(rest[at + 2]);
  };
  const std::size_t n = rest.size();
  const bool under_namespace = n >= 3 && rest[0] == "namespaces" && rest[2] != "status" && rest[2] != "finalize";
  if (under_namespace) {
    if (n > 5) return Route{};
    route.namespaced_path = true;
    route.namespace_ = std::string(rest[1]);
    take(2, n - 2);
  } else {
    if (n < 1 || n > 3) return Route{};
    take(0, n);
  }
  return route;
}

}  // namespace

Target split_target(std::string_view target) {
  Target out;
  const std::size_t q = target.find('?');
  out.path = percent_decode(target.substr(0, q), false);
  if (q == std::string_view::npos) return out;
  std::string_view query = target.substr(q + 1);
  if (const std::size_t hash = query.find('#'); hash != std::string_view::npos) query = query.substr(0, hash);
  std::size_t start = 0;
  while (start <= query.size()) {
    std::size_t amp = query.find('&', start);
    if (amp == std::string_view::npos) amp = query.size();
    const std::string_view pair = query.substr(start, amp - start);
    if (!pair.empty()) {
      const std::size_t eq = pair.find('=');
      const std::string_view key = pair.substr(0, eq);
      const std::string_view value = eq == std::string_view::npos ? std::string_view() : pair.substr(eq + 1);
      out.query.emplace(percent_decode(key, true), percent_decode(value, true));
    }
    start = amp + 1;
  }
  return out;
}

Route parse_route(std::string_view path) {
  while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
  if (path.empty() || path.front() != '/') return Route{};
  std::vector<std::string_view> parts = split_path(path.substr(1));
  for (const auto& part : parts) {
    if (part.empty()) return Route{};
  }
  Route route;
  const std::string_view head = parts[0];
  if (parts.size() == 1 && head == "version") {
    route.endpoint = Endpoint::Version;
  } else if (head == "healthz" || head == "livez" || head == "readyz") {
    route.endpoint = Endpoint::Health;
  } else if (head == "openapi" && parts.size() >= 2) {
    if (parts[1] == "v2" && parts.size() == 2) {
      route.endpoint = Endpoint::OpenApiV2;
    } else if (parts[1] == "v3" && parts.size() == 2) {
      route.endpoint = Endpoint::OpenApiV3Root;
    } else if (parts[1] == "v3" && parts.size() == 4 && parts[2] == "api") {
      route.endpoint = Endpoint::OpenApiV3Document;
      route.version = std::string(parts[3]);
    } else if (parts[1] == "v3" && parts.size() == 5 && parts[2] == "apis") {
      route.endpoint = Endpoint::OpenApiV3Document;
      route.group = std::string(parts[3]);
      route.version = std::string(parts[4]);
    }
  } else if (head == "api") {
    if (parts.size() == 1) {
      route.endpoint = Endpoint::LegacyVersions;
    } else if (parts.size() == 2) {
      route.endpoint = Endpoint::ResourceList;
      route.version = std::string(parts[1]);
    } else {
      return resource_route("", std::string(parts[1]), {parts.begin() + 2, parts.end()});
    }
  } else if (head == "apis") {
    if (parts.size() == 1) {
      route.endpoint = Endpoint::GroupList;
    } else if (parts.size() == 2) {
      route.endpoint = Endpoint::Group;
      route.group = std::string(parts[1]);
    } else if (parts.size() == 3) {
      route.endpoint = Endpoint::ResourceList;
      route.group = std::string(parts[1]);
      route.version = std::string(parts[2]);
    } else {
      return resource_route(std::string(parts[1]), std::string(parts[2]), {parts.begin() + 3, parts.end()});
    }
  }
  return route;
}

}  // namespace rr::apiserver_detail
