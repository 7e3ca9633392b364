// Kubernetes' URL library (kubernetes.URL): url(), isURL(), getScheme(), getHost(), getHostname(),
// getPort(), getEscapedPath(), getQuery(). Parsing follows Go's url.ParseRequestURI: an absolute
// URL (scheme, then an authority after "//", a path, a query) or an absolute path.
#include <algorithm>
#include <string_view>
#include <vector>

#include "functions.hpp"

namespace rr::cel {

namespace {

struct Url {
  std::string text, scheme, host, path, query;
};

bool hex(char c) { return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }

// Percent-escapes must be well formed.
bool escapes_ok(const std::string& s) {
  for (std::size_t i = 0; i < s.size(); ++i)
    if (s[i] == '%' && (i + 2 >= s.size() || !hex(s[i + 1]) || !hex(s[i + 2]))) return false;
  return true;
}

// The characters Go's url.ParseRequestURI accepts, besides letters and digits, in the userinfo
// before '@' (validUserinfo) and in the host (unescape's encodeHost mode; bytes >= 0x80 pass).
bool chars_ok(const std::string& s, std::string_view also) {
  for (const char c : s) {
    const bool alnum = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    if (!alnum && static_cast<unsigned char>(c) < 0x80 && also.find(c) == std::string_view::npos) return false;
  }
  return true;
}

bool no_space_or_control(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) <= 0x20 || c == 0x7f) return false;
  return true;
}

std::optional<Url> parse_url(const std::string& s) {
  if (s.empty() || !no_space_or_control(s)) return std::nullopt;
  Url u;
  u.text = s;
  std::string rest = s;
  if (const auto q = rest.find('?'); q != std::string::npos) {
    u.query = rest.substr(q + 1);
    rest.resize(q);
  }
  if (rest[0] != '/') {
    const auto colon = rest.find(':');
    if (colon == std::string::npos || colon == 0) return std::nullopt;
    u.scheme = rest.substr(0, colon);
    const char first = u.scheme[0];
    if (!((first >= 'a' && first <= 'z') || (first >= 'A' && first <= 'Z'))) return std::nullopt;
    for (const char c : u.scheme)
      if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '+' || c == '-' ||
            c == '.'))
        return std::nullopt;
    rest = rest.substr(colon + 1);
    if (rest.rfind("//", 0) == 0) {
      rest = rest.substr(2);
      const auto slash = rest.find('/');
      std::string authority = rest.substr(0, slash);
      rest = slash == std::string::npos ? std::string() : rest.substr(slash);
      if (const auto at = authority.rfind('@'); at != std::string::npos) {
        if (!chars_ok(authority.substr(0, at), "-._:~!$&'()*+,;=%@")) return std::nullopt;
        authority = authority.substr(at + 1);
      }
      if (!chars_ok(authority, "-_.~!$&'()*+,;=:[]<>\"%") || !escapes_ok(authority)) return std::nullopt;
      u.host = authority;
    } else if (rest.empty() || rest[0] != '/') {
      u.path = rest;  // an opaque URL ("mailto:x"): no host
      return escapes_ok(u.path) ? std::optional<Url>(u) : std::nullopt;
    }
  }
  u.path = rest;
  if (!escapes_ok(u.path) || !escapes_ok(u.query)) return std::nullopt;
  // A bracketed IPv6 host must close; a port must be digits.
  if (!u.host.empty() && u.host[0] == '[' && u.host.find(']') == std::string::npos) return std::nullopt;
  return u;
}

std::string hostname(const Url& u) {
  if (!u.host.empty() && u.host[0] == '[') return u.host.substr(1, u.host.find(']') - 1);
  return u.host.substr(0, u.host.rfind(':') == std::string::npos ? std::string::npos : u.host.rfind(':'));
}

std::string port(const Url& u) {
  const auto close = u.host.find(']');
  const auto colon = u.host.rfind(':');
  if (colon == std::string::npos || (close != std::string::npos && colon < close)) return "";
  return u.host.substr(colon + 1);
}

std::string unescape(const std::string& s) {
  std::string out;
  for (std::size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex(s[i + 1]) && hex(s[i + 2])) {
      out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

class UrlValue final : public Opaque {
 public:
  explicit UrlValue(Url u) : url(std::move(u)) {}
  std::string type_name() const override { return "kubernetes.URL"; }
  bool equals(const Opaque& other) const override { return url.text == static_cast<const UrlValue&>(other).url.text; }
  std::string to_string() const override { return url.text; }
  Url url;
};

const Url* as_url(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::Opaque || a[0].as_opaque().type_name() != "kubernetes.URL") return nullptr;
  return &static_cast<const UrlValue&>(a[0].as_opaque()).url;
}

Value url(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("url", a);
  auto u = parse_url(a[0].as_string());
  if (!u) return Value::error("URL parse error during conversion from string: " + a[0].as_string());
  return Value(std::shared_ptr<const Opaque>(std::make_shared<UrlValue>(std::move(*u))));
}

Value is_url(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("isURL", a);
  return Value(parse_url(a[0].as_string()).has_value());
}

enum class UrlPart { Scheme, Host, Hostname, Port, EscapedPath };

template <UrlPart P>
Value part(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"getScheme", "getHost", "getHostname", "getPort", "getEscapedPath"};
  const Url* u = as_url(a);
  if (u == nullptr) return no_overload(kNames[static_cast<int>(P)], a);
  switch (P) {
    case UrlPart::Scheme: return Value(u->scheme);
    case UrlPart::Host: return Value(u->host);
    case UrlPart::Hostname: return Value(hostname(*u));
    case UrlPart::Port: return Value(port(*u));
    case UrlPart::EscapedPath: return Value(u->path);
  }
  return no_overload(kNames[static_cast<int>(P)], a);
}

// The query as Go's url.Values: each key with its values in order.
Value query(std::span<const Value> a) {
  const Url* u = as_url(a);
  if (u == nullptr) return no_overload("getQuery", a);
  std::vector<std::pair<std::string, std::vector<Value>>> params;
  std::size_t start = 0;
  while (start <= u->query.size() && !u->query.empty()) {
    auto end = u->query.find_first_of("&", start);
    if (end == std::string::npos) end = u->query.size();
    const std::string pair = u->query.substr(start, end - start);
    if (!pair.empty()) {
      const auto eq = pair.find('=');
      const std::string key = unescape(pair.substr(0, eq));
      const std::string value = eq == std::string::npos ? "" : unescape(pair.substr(eq + 1));
      auto it = std::find_if(params.begin(), params.end(), [&](const auto& p) { return p.first == key; });
      if (it == params.end()) it = params.insert(params.end(), {key, {}});
      it->second.emplace_back(value);
    }
    start = end + 1;
  }
  std::vector<std::pair<Value, Value>> entries;
  for (auto& p : params) entries.emplace_back(Value(p.first), Value::list(std::move(p.second)));
  return Value::map(std::move(entries));
}

}  // namespace

void register_url(FunctionTable& t) {
  t.add("url", url, true, false);
  t.add("isURL", is_url, true, false);
  t.add("getScheme", part<UrlPart::Scheme>, false, true);
  t.add("getHost", part<UrlPart::Host>, false, true);
  t.add("getHostname", part<UrlPart::Hostname>, false, true);
  t.add("getPort", part<UrlPart::Port>, false, true);
  t.add("getEscapedPath", part<UrlPart::EscapedPath>, false, true);
  t.add("getQuery", query, false, true);
}

}  // namespace rr::cel
