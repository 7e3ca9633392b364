// Kubernetes' format library (kubernetes.NamedFormat): format.named(name) and format.<name>()
// for dns1123Label, dns1123Subdomain, dns1035Label, qualifiedName, dns1123LabelPrefix,
// dns1123SubdomainPrefix, dns1035LabelPrefix, labelValue, uri, uuid, byte, date, datetime;
// <format>.validate(s) is optional.none() for a valid string, else optional.of(the messages),
// with apimachinery's validation messages.
#include <re2/re2.h>

#include <memory>
#include <vector>

#include "base64.hpp"
#include "functions.hpp"
#include "time_util.hpp"

namespace rr::cel {

namespace {

using Messages = std::vector<std::string>;

const char* const kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
const char* const kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
const char* const kDns1035Fmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
const char* const kQualifiedFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
const char* const kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";

// Whether `s` matches the whole of one of the patterns above, each compiled once.
bool full_match(const std::string& s, const char* pattern) {
  static const auto compiled = [] {
    std::vector<std::pair<const char*, std::unique_ptr<re2::RE2>>> out;
    for (const char* p : {kLabelFmt, kSubdomainFmt, kDns1035Fmt, kQualifiedFmt, kLabelValueFmt})
      out.emplace_back(p, std::make_unique<re2::RE2>(p));
    return out;
  }();
  for (const auto& [p, re] : compiled)
    if (p == pattern) return re2::RE2::FullMatch(s, *re);
  return false;
}

std::string max_len(std::size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }

Messages dns1123_label(const std::string& s) {
  Messages m;
  if (s.size() > 63) m.push_back(max_len(63));
  if (!full_match(s, kLabelFmt))
    m.push_back(std::string("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
                            "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex "
                            "used for validation is '") +
                kLabelFmt + "')");
  return m;
}

Messages dns1123_subdomain(const std::string& s) {
  Messages m;
  if (s.size() > 253) m.push_back(max_len(253));
  if (!full_match(s, kSubdomainFmt))
    m.push_back(std::string("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
                            "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex "
                            "used for validation is '") +
                kSubdomainFmt + "')");
  return m;
}

Messages dns1035_label(const std::string& s) {
  Messages m;
  if (s.size() > 63) m.push_back(max_len(63));
  if (!full_match(s, kDns1035Fmt))
    m.push_back(std::string("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start with an "
                            "alphabetic character, and end with an alphanumeric character (e.g. 'my-name',  or "
                            "'abc-123', regex used for validation is '") +
                kDns1035Fmt + "')");
  return m;
}

// The generateName forms: a trailing '-' is allowed (apimachinery's maskTrailingDash).
template <Messages (*F)(const std::string&)>
Messages prefix_of(const std::string& s) {
  std::string masked = s;
  if (masked.size() > 1 && masked.back() == '-') masked.back() = 'a';
  return F(masked);
}

Messages qualified_name(const std::string& s) {
  Messages m;
  const std::string qualified_error =
      std::string("must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
                  "alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation "
                  "is '") +
      kQualifiedFmt + "')";
  std::string name = s;
  const auto slash = s.find('/');
  if (slash != std::string::npos) {
    if (s.find('/', slash + 1) != std::string::npos) {
      m.push_back("a qualified name " + qualified_error +
                  " with an optional DNS subdomain prefix and '/' (e.g. "
                  "'example.com/MyName')");
      return m;
    }
    const std::string prefix = s.substr(0, slash);
    name = s.substr(slash + 1);
    if (prefix.empty()) m.push_back("prefix part must be non-empty");
    else
      for (const auto& msg : dns1123_subdomain(prefix)) m.push_back("prefix part " + msg);
  }
  if (name.empty()) m.push_back("name part must be non-empty");
  else if (name.size() > 63) m.push_back("name part " + max_len(63));
  if (!name.empty() && !full_match(name, kQualifiedFmt)) m.push_back("name part " + qualified_error);
  return m;
}

Messages label_value(const std::string& s) {
  Messages m;
  if (s.size() > 63) m.push_back(max_len(63));
  if (!full_match(s, kLabelValueFmt))
    m.push_back(std::string("a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
                            "'.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or "
                            "'my_value',  or '12345', regex used for validation is '") +
                kLabelValueFmt + "')");
  return m;
}

Messages uri(const std::string& s) {
  // An absolute URI or an absolute path, as url.ParseRequestURI accepts.
  static const re2::RE2 re("^(?:[A-Za-z][A-Za-z0-9+.-]*:[^\\s]*|/[^\\s]*)$");
  if (re2::RE2::FullMatch(s, re)) return {};
  return {"invalid URI"};
}

Messages uuid(const std::string& s) {
  static const re2::RE2 re("^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$");
  if (re2::RE2::FullMatch(s, re)) return {};
  return {"does not match the UUID format"};
}

Messages byte(const std::string& s) {
  if (s.size() % 4 == 0 && base64_decode(s)) return {};
  return {"invalid base64"};
}

Messages date(const std::string& s) {
  if (s.size() == 10 && parse_timestamp(s + "T00:00:00Z")) return {};
  return {"invalid date"};
}

Messages datetime(const std::string& s) {
  if (parse_timestamp(s)) return {};
  return {"invalid datetime"};
}

struct NamedFormat {
  const char* name;
  Messages (*check)(const std::string&);
};

constexpr NamedFormat kFormats[] = {
    {"dns1123Label", dns1123_label},
    {"dns1123Subdomain", dns1123_subdomain},
    {"dns1035Label", dns1035_label},
    {"qualifiedName", qualified_name},
    {"dns1123LabelPrefix", prefix_of<dns1123_label>},
    {"dns1123SubdomainPrefix", prefix_of<dns1123_subdomain>},
    {"dns1035LabelPrefix", prefix_of<dns1035_label>},
    {"labelValue", label_value},
    {"uri", uri},
    {"uuid", uuid},
    {"byte", byte},
    {"date", date},
    {"datetime", datetime},
};

class FormatValue final : public Opaque {
 public:
  explicit FormatValue(const NamedFormat* f) : format(f) {}
  std::string type_name() const override { return "kubernetes.NamedFormat"; }
  bool equals(const Opaque& other) const override { return format == static_cast<const FormatValue&>(other).format; }
  std::string to_string() const override { return format->name; }
  const NamedFormat* format;
};

Value make(const NamedFormat& f) { return Value(std::shared_ptr<const Opaque>(std::make_shared<FormatValue>(&f))); }

template <std::size_t I>
Value format_fn(std::span<const Value> a) {
  if (!a.empty()) return no_overload(std::string("format.") + kFormats[I].name, a);
  return make(kFormats[I]);
}

Value named(std::span<const Value> a) {
  if (a.size() != 1 || a[0].kind() != Kind::String) return no_overload("format.named", a);
  for (const auto& f : kFormats)
    if (a[0].as_string() == f.name) return Value::optional_of(make(f));
  return Value::optional_none();
}

Value validate(std::span<const Value> a) {
  if (a.size() != 2 || a[0].kind() != Kind::Opaque || a[0].as_opaque().type_name() != "kubernetes.NamedFormat" ||
      a[1].kind() != Kind::String)
    return no_overload("validate", a);
  const Messages m = static_cast<const FormatValue&>(a[0].as_opaque()).format->check(a[1].as_string());
  if (m.empty()) return Value::optional_none();
  std::vector<Value> items(m.begin(), m.end());
  return Value::optional_of(Value::list(std::move(items)));
}

template <std::size_t... I>
void add_formats(FunctionTable& t, std::index_sequence<I...>) {
  (t.add(std::string("format.") + kFormats[I].name, format_fn<I>, true, false), ...);
}

}  // namespace

void register_named_formats(FunctionTable& t) {
  add_formats(t, std::make_index_sequence<std::size(kFormats)>{});
  t.add("format.named", named, true, false);
  t.add("validate", validate, false, true);
}

}  // namespace rr::cel
