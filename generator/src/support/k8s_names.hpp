// Kubernetes' name rules (apimachinery's validation, restated), for checking what the user wrote
// and every name rrgen derives: a derived name the API server would refuse is a bug of rrgen.
#pragma once
#include <string_view>

namespace rrgen {

// [a-z0-9]([-a-z0-9]*[a-z0-9])?, at most 63: namespaces, CRD plurals, most label-like names.
bool is_dns1123_label(std::string_view s);
// DNS-1123 labels joined by '.', at most 253: most object names, API groups, Lease names.
bool is_dns1123_subdomain(std::string_view s);
// A DNS-1123 label that starts with a letter: CRD versions ("v1", "v1beta1"), names and plurals.
bool is_dns1035_label(std::string_view s);
// ([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9], at most 63: the name part of a qualified name
// ("example.com/cleanup").
bool is_qualified_name_part(std::string_view s);
// A label value: empty, or a qualified name part.
bool is_label_value(std::string_view s);

}  // namespace rrgen
