// Kubernetes' semver library (kubernetes.Semver): semver(s[, normalize]), isSemver(s[, normalize]),
// major(), minor(), patch(), and ordering by semantic-versioning precedence (fn_compare.cpp).
// `normalize` accepts what Kubernetes normalises: a leading "v", a missing minor or patch, and
// leading zeros.
#include <vector>

#include "functions.hpp"

namespace rr::cel {

namespace {

struct Version {
  std::uint64_t major = 0, minor = 0, patch = 0;
  std::vector<std::string> pre;
  std::string build;
};

bool numeric(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (c < '0' || c > '9') return false;
  return true;
}

bool identifier(const std::string& s) {
  if (s.empty()) return false;
  for (const char c : s)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '-')) return false;
  return true;
}

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const auto at = s.find(sep, start);
    out.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
    if (at == std::string::npos) return out;
    start = at + 1;
  }
}

std::optional<std::uint64_t> number(std::string s, bool normalize) {
  if (normalize) {
    while (s.size() > 1 && s[0] == '0') s.erase(0, 1);
  }
  if (!numeric(s) || (s.size() > 1 && s[0] == '0') || s.size() > 19) return std::nullopt;
  return std::stoull(s);
}

std::optional<Version> parse(std::string s, bool normalize) {
  Version v;
  if (normalize && !s.empty() && s[0] == 'v') s.erase(0, 1);
  if (const auto plus = s.find('+'); plus != std::string::npos) {
    v.build = s.substr(plus + 1);
    for (const auto& id : split(v.build, '.'))
      if (!identifier(id)) return std::nullopt;
    s.resize(plus);
  }
  if (const auto dash = s.find('-'); dash != std::string::npos) {
    v.pre = split(s.substr(dash + 1), '.');
    for (const auto& id : v.pre)
      if (!identifier(id) || (numeric(id) && id.size() > 1 && id[0] == '0')) return std::nullopt;
    s.resize(dash);
  }
  auto parts = split(s, '.');
  if (normalize)
    while (parts.size() < 3) parts.emplace_back("0");
  if (parts.size() != 3) return std::nullopt;
  const auto major = number(parts[0], normalize), minor = number(parts[1], normalize),
             patch = number(parts[2], normalize);
  if (!major || !minor || !patch) return std::nullopt;
  v.major = *major;
  v.minor = *minor;
  v.patch = *patch;
  return v;
}

int compare_versions(const Version& a, const Version& b) {
  auto cmp = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (int c = cmp(a.major, b.major)) return c;
  if (int c = cmp(a.minor, b.minor)) return c;
  if (int c = cmp(a.patch, b.patch)) return c;
  if (a.pre.empty() || b.pre.empty()) return a.pre.empty() == b.pre.empty() ? 0 : (a.pre.empty() ? 1 : -1);
  for (std::size_t i = 0; i < a.pre.size() && i < b.pre.size(); ++i) {
    const bool na = numeric(a.pre[i]), nb = numeric(b.pre[i]);
    int c;
    if (na && nb) c = cmp(std::stoull(a.pre[i]), std::stoull(b.pre[i]));
    else if (na != nb) c = na ? -1 : 1;
    else c = cmp(a.pre[i], b.pre[i]);
    if (c != 0) return c;
  }
  return cmp(a.pre.size(), b.pre.size());
}

class SemverValue final : public Opaque {
 public:
  explicit SemverValue(Version v) : version(std::move(v)) {}
  std::string type_name() const override { return "kubernetes.Semver"; }
  bool equals(const Opaque& other) const override {
    return compare_versions(version, static_cast<const SemverValue&>(other).version) == 0;
  }
  std::string to_string() const override {
    std::string out = std::to_string(version.major) + "." + std::to_string(version.minor) + "." +
                      std::to_string(version.patch);
    for (std::size_t i = 0; i < version.pre.size(); ++i) out += (i == 0 ? "-" : ".") + version.pre[i];
    if (!version.build.empty()) out += "+" + version.build;
    return out;
  }
  std::optional<int> compare(const Opaque& other) const override {
    return compare_versions(version, static_cast<const SemverValue&>(other).version);
  }
  Version version;
};

// The text and the normalise flag of semver(s[, normalize]) / isSemver(s[, normalize]).
bool arguments(std::span<const Value> a) {
  return (a.size() == 1 || (a.size() == 2 && a[1].kind() == Kind::Bool)) && a[0].kind() == Kind::String;
}

Value semver(std::span<const Value> a) {
  if (!arguments(a)) return no_overload("semver", a);
  const auto v = parse(a[0].as_string(), a.size() == 2 && a[1].as_bool());
  if (!v) return Value::error("invalid semver: " + a[0].as_string());
  return Value(std::shared_ptr<const Opaque>(std::make_shared<SemverValue>(*v)));
}

Value is_semver(std::span<const Value> a) {
  if (!arguments(a)) return no_overload("isSemver", a);
  return Value(parse(a[0].as_string(), a.size() == 2 && a[1].as_bool()).has_value());
}

template <int Part>
Value part(std::span<const Value> a) {
  static constexpr const char* kNames[] = {"major", "minor", "patch"};
  if (a.size() != 1 || a[0].kind() != Kind::Opaque || a[0].as_opaque().type_name() != "kubernetes.Semver")
    return no_overload(kNames[Part], a);
  const Version& v = static_cast<const SemverValue&>(a[0].as_opaque()).version;
  const std::uint64_t n = Part == 0 ? v.major : (Part == 1 ? v.minor : v.patch);
  if (n > static_cast<std::uint64_t>(INT64_MAX)) return Value::error("integer overflow");
  return Value(static_cast<std::int64_t>(n));
}

}  // namespace

void register_semver(FunctionTable& t) {
  t.add("semver", semver, true, false);
  t.add("isSemver", is_semver, true, false);
  t.add("major", part<0>, false, true);
  t.add("minor", part<1>, false, true);
  t.add("patch", part<2>, false, true);
}

}  // namespace rr::cel
