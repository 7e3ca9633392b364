#include "load/yaml_copy.hpp"

#include <algorithm>
#include <numeric>
#include <vector>

namespace rrgen {

Yaml yaml_copy(const Node& n, KeyOrder order) {
  if (n.is_mapping()) {
    std::vector<std::size_t> keys(n.keys.size());
    std::iota(keys.begin(), keys.end(), std::size_t{0});
    if (order == KeyOrder::Sorted)
      std::sort(keys.begin(), keys.end(), [&](std::size_t a, std::size_t b) { return n.keys[a] < n.keys[b]; });
    Yaml m = Yaml::map();
    for (std::size_t i : keys) m.set(n.keys[i], yaml_copy(n.children[i], order));
    return m;
  }
  if (n.is_sequence()) {
    Yaml s = Yaml::seq();
    for (const Node& c : n.children) s.push(yaml_copy(c, order));
    return s;
  }
  return resolve_scalar(n) == ScalarType::String ? Yaml::str(n.text) : Yaml::raw(to_json_text(n));
}

}  // namespace rrgen
