#include "yaml_json.hpp"

#include <stdexcept>

#include "rr/yaml/reader.hpp"

namespace rr::apiserver_detail {

std::vector<Json> yaml_documents(const std::string& text) {
  yaml::ReadResult read = yaml::read(text);
  // sigs.k8s.io/yaml's words: "error converting YAML to JSON: yaml: line 3: ..."
  if (read.error) throw std::runtime_error("error converting YAML to JSON: " + read.error->go_text);
  std::vector<Json> out;
  out.reserve(read.documents.size());
  for (yaml::Document& doc : read.documents) out.push_back(std::move(doc.value));
  return out;
}

}  // namespace rr::apiserver_detail
