// The Kubernetes 1.35 API facts (schemas/kubernetes-1.35/*.yaml, derived from the API server's
// OpenAPI documents by `rrgen openapi-facts`) compiled into the library (cmake/RrgenEmbed.cmake),
// so the local cluster serves their schemas from any directory.
#pragma once
#include <span>
#include <string_view>

namespace rr::apiserver_detail {

struct EmbeddedFile {
  std::string_view path;  // "apps-v1.yaml"
  std::string_view content;
};

std::span<const EmbeddedFile> embedded_files();
std::string_view embedded_file(std::string_view path);

}  // namespace rr::apiserver_detail
