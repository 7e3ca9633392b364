#include "rr/webhook/dry_run.hpp"
#include "rr/core/json.hpp"

#include <string>
#include <utility>

namespace rr::webhook {

namespace {

WriteOptions as_dry_run(WriteOptions opts) {
  opts.dry_run = true;
  return opts;
}

DeleteOptions as_dry_run(DeleteOptions opts) {
  opts.dry_run = true;
  return opts;
}

// Events are writes too (core/v1 Events): a dry run records none.
class DroppingRecorder : public EventRecorder {
 public:
  void record(const Event&) override {}
};

}  // namespace

Json DryRunClient::do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return ForwardingClient::do_create(kind, object, as_dry_run(opts));
}

Json DryRunClient::do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return ForwardingClient::do_update(kind, object, as_dry_run(opts));
}

Json DryRunClient::do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) {
  return ForwardingClient::do_update_status(kind, object, as_dry_run(opts));
}

Json DryRunClient::do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                            std::string_view subresource, const WriteOptions& opts) {
  return ForwardingClient::do_patch(kind, key, type, body, subresource, as_dry_run(opts));
}

Json DryRunClient::do_remove(const KindInfo& kind, const ObjectKey& key, const DeleteOptions& opts) {
  return ForwardingClient::do_remove(kind, key, as_dry_run(opts));
}

void DryRunClient::do_remove_collection(const KindInfo& kind, const ListOptions& list, const DeleteOptions& opts) {
  ForwardingClient::do_remove_collection(kind, list, as_dry_run(opts));
}

Config dry_run_config(const Config& config) {
  if (!config.client) return config;
  Config dry = config;
  dry.api_reader = config.api_reader ? config.api_reader : config.client;
  dry.client = std::make_shared<DryRunClient>(config.client);
  dry.recorder = std::make_shared<DroppingRecorder>();
  return dry;
}

}  // namespace rr::webhook
