// Kubernetes' name and key syntax checks (k8s.io/apimachinery util/validation, api/validate/content,
// api/validation/path), each returning the messages upstream returns, in its order; empty when valid.
// Several can apply at once ("must be no more than 63 characters" and the character rule).
// Lengths are bytes, as Go's len(); note the names say "characters" and label keys/values "bytes",
// as 1.35 words them.
#pragma once
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace rr::validation {

using Messages = std::vector<std::string>;

inline constexpr std::size_t kDNS1123LabelMaxLength = 63;
inline constexpr std::size_t kDNS1123SubdomainMaxLength = 253;
inline constexpr std::size_t kDNS1035LabelMaxLength = 63;
inline constexpr std::size_t kLabelValueMaxLength = 63;

Messages is_dns1123_label(std::string_view value);
Messages is_dns1123_subdomain(std::string_view value);
Messages is_dns1035_label(std::string_view value);
Messages is_qualified_name(std::string_view value);  // a label key: [prefix/]name
Messages is_valid_label_value(std::string_view value);
Messages is_valid_path_segment_name(std::string_view value);
Messages is_valid_path_segment_prefix(std::string_view value);

// The ValidateNameFunc a resource's validation passes to ValidateObjectMeta.
enum class NameRule {
  DNSSubdomain,   // NameIsDNSSubdomain: most kinds, and custom resources
  DNSLabel,       // NameIsDNSLabel: Namespace
  DNS1035Label,   // NameIsDNS1035Label: Service
  PathSegment,    // path.ValidatePathSegmentName: RBAC, and what every kind must at least satisfy
  Unconstrained,  // a name function that returns nothing (CertificateSigningRequest)
};

std::string_view to_string(NameRule rule) noexcept;

// The name function applied to `name`. prefix: it is a generateName, to which the server appends;
// a trailing '-' is then allowed (maskTrailingDash) and path segments are not checked whole.
Messages name_messages(NameRule rule, std::string_view name, bool prefix);

}  // namespace rr::validation
