// rr::Context: per-request state. The original config and resource type are fixed at construction
// (they are what loaded the resource); the current ones can be replaced for a nested scope.
#include "rr/reconcilers/context.hpp"

#include <utility>

#include "rr/reconcilers/stop_token.hpp"

namespace rr {

Context::Context(ContextOptions options)
    : config_(std::move(options.config)),
      original_config_(config_),
      additional_configs_(std::move(options.additional_configs)),
      request_(std::move(options.request)),
      resource_type_(std::move(options.resource_type)),
      original_resource_type_(resource_type_),
      log_(std::move(options.log)),
      now_(options.now.value_or(std::chrono::system_clock::now())),
      cancelled_(std::move(options.cancelled)),
      stop_(std::move(options.stop)),
      deadline_(options.deadline) {}

bool Context::cancelled() const noexcept {
  return (cancelled_ && cancelled_->load()) || (stop_ && stop_->token.stop_requested());
}

std::shared_ptr<const ReconcileStop> make_reconcile_stop(std::stop_token token) {
  return std::make_shared<const ReconcileStop>(ReconcileStop{std::move(token)});
}

std::stop_token stop_token_of(const Context& ctx) { return ctx.stop() ? ctx.stop()->token : std::stop_token(); }

Context::Scope::Scope(Context& ctx, Config previous_config, KindInfo previous_resource_type, Logger previous_log)
    : ctx_(ctx),
      config_(std::move(previous_config)),
      resource_type_(std::move(previous_resource_type)),
      log_(std::move(previous_log)) {}

Context::Scope::~Scope() {
  ctx_.config_ = std::move(config_);
  ctx_.resource_type_ = std::move(resource_type_);
  ctx_.log_ = std::move(log_);
}

Context::Scope Context::with_config(Config config) {
  Config previous = std::exchange(config_, std::move(config));
  return Scope(*this, std::move(previous), resource_type_, log_);
}

Context::Scope Context::with_resource_type(KindInfo type) {
  KindInfo previous = std::exchange(resource_type_, std::move(type));
  return Scope(*this, config_, std::move(previous), log_);
}

Context::Scope Context::with_log(Logger log) {
  Logger previous = std::exchange(log_, std::move(log));
  return Scope(*this, config_, resource_type_, std::move(previous));
}

}  // namespace rr
