// Admission: the kind's defaulting and validation, as the API server runs them for a custom
// resource on every write of the main resource.
#include <algorithm>
#include <cctype>

#include "errors.hpp"
#include "object_meta.hpp"
#include "store.hpp"

namespace rr::cluster_detail {

namespace {

// RFC 6901 pointer → Kubernetes field path: "/spec/ports/2/port" → "spec.ports[2].port".
std::string field_path(std::string_view pointer) {
  std::string path;
  std::size_t pos = 0;
  while (pos < pointer.size() && pointer[pos] == '/') {
    std::size_t end = pointer.find('/', pos + 1);
    std::string token(pointer.substr(pos + 1, end == std::string_view::npos ? std::string_view::npos : end - pos - 1));
    for (std::size_t i = 0; (i = token.find('~', i)) != std::string::npos; ++i) {
      if (i + 1 < token.size()) token.replace(i, 2, token[i + 1] == '1' ? "/" : "~");
    }
    const bool index = !token.empty() && std::all_of(token.begin(), token.end(), [](unsigned char c) {
      return std::isdigit(c) != 0;
    });
    if (index) path += "[" + token + "]";
    else path += (path.empty() ? "" : ".") + token;
    if (end == std::string_view::npos) break;
    pos = end;
  }
  return path;
}

}  // namespace

void Store::admit(const KindEntry& entry, Json& object) const {
  if (!entry.admit) return;
  std::vector<FieldError> findings;
  try {
    findings = entry.admit(object);
  } catch (const DecodeError& e) {
    // A value of the wrong type: the API server's schema validation reports it as invalid.
    findings.push_back(FieldError{field_path(e.pointer()), FieldErrorType::Invalid, e.message()});
  }
  if (!findings.empty()) fail(invalid(entry.info, meta_string(object, "name"), api_errors::causes_of(findings)));
}

}  // namespace rr::cluster_detail
