#include "backends/config/manager_image.hpp"

#include "support/image_reference.hpp"

namespace rrgen {

Yaml manager_kustomization(const std::string& image) {
  std::string why;
  ImageReference ref = parse_image_reference(image, why).value_or(ImageReference{image, "", ""});
  Yaml entry = Yaml::map();
  entry.set("name", std::string(kManagerImageName));
  entry.set("newName", ref.name);
  // No tag and no digest keeps the placeholder's `latest`, as Docker reads a bare name.
  if (!ref.tag.empty()) entry.set("newTag", ref.tag);
  if (!ref.digest.empty()) entry.set("digest", ref.digest);
  Yaml doc = kustomization({"manager.yaml"});
  doc.set("images", Yaml::seq().push(std::move(entry)));
  return doc;
}

}  // namespace rrgen
