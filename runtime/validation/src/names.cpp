// The syntax checks, hand-written rather than regexes: they run on every write, and a backtracking
// regex over a 256 KiB annotation key would be a denial of service. Each function names the regex
// it implements; the messages quote the regexes as the API server does.
#include "rr/validation/names.hpp"

#include <algorithm>
#include <initializer_list>
#include <string>

namespace rr::validation {
namespace {

bool lower_alnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool alnum(char c) { return lower_alnum(c) || (c >= 'A' && c <= 'Z'); }

// [a-z0-9]([-a-z0-9]*[a-z0-9])?
bool dns1123_label_ok(std::string_view s) {
  if (s.empty() || !lower_alnum(s.front()) || !lower_alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return lower_alnum(c) || c == '-'; });
}

// [a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*
bool dns1123_subdomain_ok(std::string_view s) {
  for (;;) {
    const std::size_t dot = s.find('.');
    if (!dns1123_label_ok(s.substr(0, dot))) return false;
    if (dot == std::string_view::npos) return true;
    s.remove_prefix(dot + 1);
  }
}

// [a-z]([-a-z0-9]*[a-z0-9])?
bool dns1035_label_ok(std::string_view s) { return dns1123_label_ok(s) && s.front() >= 'a' && s.front() <= 'z'; }

// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]
bool label_key_name_ok(std::string_view s) {
  if (s.empty() || !alnum(s.front()) || !alnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return alnum(c) || c == '-' || c == '_' || c == '.'; });
}

std::string regex_error(std::string msg, std::string_view re, std::initializer_list<std::string_view> examples) {
  msg += " (e.g. ";
  bool first = true;
  for (const std::string_view e : examples) {
    if (!first) msg += " or ";
    first = false;
    msg += "'" + std::string(e) + "', ";
  }
  return msg + "regex used for validation is '" + std::string(re) + "')";
}

// util/validation's MaxLenError (names) and api/validate/content's (label keys and values) differ.
std::string max_len_characters(std::size_t n) { return "must be no more than " + std::to_string(n) + " characters"; }
std::string max_len_bytes(std::size_t n) { return "must be no more than " + std::to_string(n) + " bytes"; }

constexpr std::string_view kLabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kSubdomainFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr std::string_view kDNS1035Fmt = "[a-z]([-a-z0-9]*[a-z0-9])?";
constexpr std::string_view kLabelKeyFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr std::string_view kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr std::string_view kLabelKeyErr =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character";

// IsDNS1123Subdomain; util/validation says "characters" and content (label-key prefixes) "bytes".
Messages subdomain_messages(std::string_view value, std::string (*max_len)(std::size_t)) {
  Messages errs;
  if (value.size() > kDNS1123SubdomainMaxLength) errs.push_back(max_len(kDNS1123SubdomainMaxLength));
  if (!dns1123_subdomain_ok(value)) {
    errs.push_back(regex_error("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, "
                               "'-' or '.', and must start and end with an alphanumeric character",
                               kSubdomainFmt, {"example.com"}));
  }
  return errs;
}

}  // namespace

Messages is_dns1123_label(std::string_view value) {
  Messages errs;
  if (value.size() > kDNS1123LabelMaxLength) errs.push_back(max_len_characters(kDNS1123LabelMaxLength));
  if (!dns1123_label_ok(value)) {
    if (dns1123_subdomain_ok(value)) {
      errs.emplace_back("must not contain dots");
    } else {
      errs.push_back(regex_error("a lowercase RFC 1123 label must consist of lower case alphanumeric characters or "
                                 "'-', and must start and end with an alphanumeric character",
                                 kLabelFmt, {"my-name", "123-abc"}));
    }
  }
  return errs;
}

Messages is_dns1123_subdomain(std::string_view value) { return subdomain_messages(value, max_len_characters); }

Messages is_dns1035_label(std::string_view value) {
  Messages errs;
  if (value.size() > kDNS1035LabelMaxLength) errs.push_back(max_len_characters(kDNS1035LabelMaxLength));
  if (!dns1035_label_ok(value)) {
    errs.push_back(regex_error("a DNS-1035 label must consist of lower case alphanumeric characters or '-', start "
                               "with an alphabetic character, and end with an alphanumeric character",
                               kDNS1035Fmt, {"my-name", "abc-123"}));
  }
  return errs;
}

Messages is_qualified_name(std::string_view value) {
  Messages errs;
  std::string_view name = value;
  const std::size_t slash = value.find('/');
  if (slash != std::string_view::npos) {
    if (value.find('/', slash + 1) != std::string_view::npos) {
      errs.push_back("a valid label key " +
                     regex_error(std::string(kLabelKeyErr), kLabelKeyFmt, {"MyName", "my.name", "123-abc"}) +
                     " with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')");
      return errs;
    }
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      errs.emplace_back("prefix part must be non-empty");
    } else {
      for (std::string& m : subdomain_messages(prefix, max_len_bytes)) errs.push_back("prefix part " + m);
    }
  }
  if (name.empty()) {
    errs.emplace_back("name part must be non-empty");
  } else if (name.size() > 63) {
    errs.push_back("name part " + max_len_bytes(63));
  }
  if (!label_key_name_ok(name)) {
    errs.push_back("name part " +
                   regex_error(std::string(kLabelKeyErr), kLabelKeyFmt, {"MyName", "my.name", "123-abc"}));
  }
  return errs;
}

Messages is_valid_label_value(std::string_view value) {
  Messages errs;
  if (value.size() > kLabelValueMaxLength) errs.push_back(max_len_bytes(kLabelValueMaxLength));
  if (!value.empty() && !label_key_name_ok(value)) {
    errs.push_back(regex_error("a valid label must be an empty string or consist of alphanumeric characters, '-', "
                               "'_' or '.', and must start and end with an alphanumeric character",
                               kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return errs;
}

Messages is_valid_path_segment_name(std::string_view value) {
  if (value == "." || value == "..") return {"may not be '" + std::string(value) + "'"};
  return is_valid_path_segment_prefix(value);
}

Messages is_valid_path_segment_prefix(std::string_view value) {
  Messages errs;
  if (value.find('/') != std::string_view::npos) errs.emplace_back("may not contain '/'");
  if (value.find('%') != std::string_view::npos) errs.emplace_back("may not contain '%'");
  return errs;
}

std::string_view to_string(NameRule rule) noexcept {
  switch (rule) {
    case NameRule::DNSSubdomain: return "DNSSubdomain";
    case NameRule::DNSLabel: return "DNSLabel";
    case NameRule::DNS1035Label: return "DNS1035Label";
    case NameRule::PathSegment: return "PathSegment";
    case NameRule::Unconstrained: return "Unconstrained";
  }
  return "DNSSubdomain";
}

Messages name_messages(NameRule rule, std::string_view name, bool prefix) {
  // maskTrailingDash, exactly as upstream: "abc-" is checked as "aba" (it drops two bytes).
  std::string masked;
  if (prefix && name.size() > 1 && name.back() == '-') {
    masked = std::string(name.substr(0, name.size() - 2)) + "a";
  } else {
    masked = std::string(name);
  }
  switch (rule) {
    case NameRule::DNSSubdomain: return is_dns1123_subdomain(masked);
    case NameRule::DNSLabel: return is_dns1123_label(masked);
    case NameRule::DNS1035Label: return is_dns1035_label(masked);
    case NameRule::PathSegment: return prefix ? is_valid_path_segment_prefix(name) : is_valid_path_segment_name(name);
    case NameRule::Unconstrained: return {};
  }
  return {};
}

}  // namespace rr::validation
