#include "processor_reconciler.hpp"

#include <string>
#include <utility>

#include "config_data.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/sync.hpp"

namespace fnsample {

using k8s::core::v1::ConfigMap;

const rr::Stasher<std::string>& processor_image_stash() {
  static const rr::Stasher<std::string> stasher("fnsample:processor-image");
  return stasher;
}

const rr::ConditionSet& processor_conditions() {
  static const rr::ConditionSet set = rr::ConditionSet::living({});
  return set;
}

rr::Reconciler ProcessorReconciler(const rr::Config& config, std::string system_namespace) {
  return rr::ResourceReconciler<Processor>{
      .name = "Processor",
      .conditions = processor_conditions(),
      .reconciler = rr::Sequence<Processor>{ProcessorSyncImage(std::move(system_namespace)), ProcessorApplyImage()},
      .config = config,
  };
}

rr::SubReconciler<Processor> ProcessorSyncImage(std::string system_namespace) {
  return rr::SyncReconciler<Processor>{
      .name = "SyncImage",
      .on_setup = [](rr::Setup& s) { s.watches_tracked(rr::kind_info_of<ConfigMap>()); },
      .sync = [system_namespace = std::move(system_namespace)](rr::Context& ctx, Processor&) -> rr::Error {
        // NotFound is thrown (and becomes this reconciler's error) after the track is recorded.
        const ConfigMap config =
            rr::track_and_get<ConfigMap>(ctx, {system_namespace, std::string(processor_config_map)});
        std::string image = config_value(config, processor_image_key);
        if (image.empty()) {
          return rr::Error::make("ConfigMap " + rr::go_quote(system_namespace + "/" + std::string(processor_config_map)) +
                                 " has no " + std::string(processor_image_key));
        }
        processor_image_stash().store(ctx, std::move(image));
        return {};
      },
  };
}

rr::SubReconciler<Processor> ProcessorApplyImage() {
  return rr::SyncReconciler<Processor>{
      .name = "ApplyImage",
      .sync = [](rr::Context& ctx, Processor& processor) -> rr::Error {
        rr::ensure_status(processor).image = processor_image_stash().retrieve_or_die(ctx);
        processor_conditions().manage(rr::ensure_conditions(processor), ctx.now())
            .mark_true(rr::condition_ready, "Ready");
        return {};
      },
  };
}

}  // namespace fnsample
