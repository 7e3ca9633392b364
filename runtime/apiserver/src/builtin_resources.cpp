#include "builtin_resources.hpp"

#include <algorithm>
#include <map>

// rr::builtin's table of kinds (runtime/builtin: rr_builtin_types.cpp), declared here so the
// local cluster does not include the headers of every type.
std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace rr::apiserver_detail {

std::span<const KindCodec> builtin_codecs() { return rr_builtin_types_kinds(); }

const KindCodec* builtin_codec(std::string_view api_version, std::string_view kind) {
  static const std::map<std::pair<std::string_view, std::string_view>, const KindCodec*> index = [] {
    std::map<std::pair<std::string_view, std::string_view>, const KindCodec*> out;
    for (const KindCodec& row : builtin_codecs()) out.try_emplace({row.api_version, row.kind}, &row);
    return out;
  }();
  auto it = index.find({api_version, kind});
  return it == index.end() ? nullptr : it->second;
}

const KindCodec* builtin_codec(const GroupVersionKind& gvk) { return builtin_codec(gvk.api_version(), gvk.kind); }

const KindCodec* builtin_resource(const KindInfo& kind) {
  const KindCodec* row = builtin_codec(kind.gvk);
  return row && row->resource.plural == kind.plural ? row : nullptr;
}

std::vector<std::string> verbs_of(const KindResource& resource) {
  std::vector<std::string> out;
  std::string_view rest = resource.verbs;
  while (!rest.empty()) {
    const auto space = rest.find(' ');
    out.emplace_back(rest.substr(0, space));
    rest = space == std::string_view::npos ? std::string_view() : rest.substr(space + 1);
  }
  return out;
}

std::vector<const KindCodec*> stored_builtin_resources() {
  std::vector<const KindCodec*> out;
  for (const KindCodec& row : builtin_codecs()) {
    if (row.resource.plural.empty()) continue;
    const auto verbs = verbs_of(row.resource);
    if (std::find(verbs.begin(), verbs.end(), "get") != verbs.end()) out.push_back(&row);
  }
  return out;
}

KindInfo kind_info_of(const KindCodec& row) {
  return KindInfo{.gvk = GroupVersionKind::from(row.api_version, row.kind),
                  .plural = std::string(row.resource.plural),
                  .list_kind = std::string(row.kind) + "List",
                  .scope = row.resource.namespaced ? Scope::Namespaced : Scope::Cluster,
                  .has_status = row.resource.has_status};
}

}  // namespace rr::apiserver_detail
