// Client::apply's out-of-line part: one PATCH with application/apply-patch+yaml (JSON is YAML).
#include <stdexcept>

#include "rr/client/apply.hpp"
#include "rr/core/json.hpp"

namespace rr::client_detail {

void apply_into(Client& client, const KindInfo& kind, const ApplyRequest& request, const ApplyOptions& opts,
                const ObjectCodec& codec, void* out) {
  const ObjectMetaApply& metadata = *request.metadata;
  if (!metadata.name || metadata.name->empty()) {
    // controller-runtime refuses the same before any request: an apply names its object.
    throw std::invalid_argument("apply of " + kind.gvk.kind + ": the configuration has no metadata.name");
  }
  Json body;
  request.encode(body, request.config);
  const WriteOptions write{.dry_run = opts.dry_run,
                           .field_manager = opts.field_manager,
                           .force = opts.force,
                           .field_validation = opts.field_validation,
                           .warnings = opts.warnings};
  const ObjectKey key{metadata.namespace_.value_or(""), *metadata.name};
  codec.decode(client.patch(kind, key, PatchType::Apply, body.dump(), request.subresource, write), out);
}

}  // namespace rr::client_detail
