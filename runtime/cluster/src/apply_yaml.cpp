#include "apply_yaml.hpp"

#include "errors.hpp"
#include "rr/yaml/reader.hpp"

namespace rr::cluster_detail {

Json parse_apply_body(std::string_view body) {
  yaml::ReadResult read = yaml::read(body, /*first_only=*/true);
  if (read.error) fail(api_errors::bad_request("error decoding YAML: " + read.error->go_text));
  if (read.documents.empty() || !read.documents.front().value.is_object()) {
    fail(api_errors::bad_request("error decoding YAML: the body is not a YAML mapping"));
  }
  return std::move(read.documents.front().value);
}

}  // namespace rr::cluster_detail
