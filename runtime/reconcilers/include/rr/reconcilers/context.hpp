// rr::Context: everything one request carries — the stash, the current and original config,
// the request, the resource type, a logger, the pinned "now" and cancellation.
#pragma once
#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "rr/client/kind.hpp"
#include "rr/client/object_key.hpp"
#include "rr/core/time.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/logger.hpp"
#include "rr/reconcilers/stash.hpp"

namespace rr {

using Request = ObjectKey;

// The reconcile's stop token behind a pointer (rr/reconcilers/stop_token.hpp).
struct ReconcileStop;

struct ContextOptions {
  Config config{};
  Request request{};
  KindInfo resource_type{};
  Logger log{};
  // Pinned for the whole request; defaults to the wall clock at construction.
  std::optional<std::chrono::system_clock::time_point> now{};
  std::shared_ptr<const std::atomic<bool>> cancelled{};  // shared with the manager; may be null
  std::map<std::string, Config> additional_configs{};
  // Fires when the reconcile should wind down: the controller stops, or its reconcile_timeout
  // ends (ControllerOptions::reconcile_timeout). Default: never. rr/reconcilers/stop_token.hpp
  // makes one and reads it (rr::stop_token_of), so this header does not parse <stop_token>.
  std::shared_ptr<const ReconcileStop> stop{};
  // When the reconcile_timeout ends (steady clock); the HTTP client's calls on the reconcile's
  // thread stop there too (rr/client/call_deadline.hpp). nullopt: no timeout.
  std::optional<std::chrono::steady_clock::time_point> deadline{};
};

class Context {
 public:
  explicit Context(ContextOptions options);

  Stash& stash() noexcept { return stash_; }
  const Stash& stash() const noexcept { return stash_; }

  // The config in effect (WithConfig may replace it for a nested reconciler).
  const Config& config() const noexcept { return config_; }
  // The config that loaded the resource: finalizer patches and events use it.
  const Config& original_config() const noexcept { return original_config_; }
  const std::map<std::string, Config>& additional_configs() const noexcept { return additional_configs_; }

  const Request& request() const noexcept { return request_; }
  const KindInfo& resource_type() const noexcept { return resource_type_; }
  const KindInfo& original_resource_type() const noexcept { return original_resource_type_; }

  std::chrono::system_clock::time_point now() const noexcept { return now_; }
  Time now_time() const { return Time::from(now_); }  // RFC 3339, second precision

  Logger& log() noexcept { return log_; }
  // True once the controller stops or the reconcile's deadline passed: wind down early.
  bool cancelled() const noexcept;
  // The stop token to wait on rather than polling cancelled(): rr::stop_token_of(ctx), in
  // rr/reconcilers/stop_token.hpp.
  const std::shared_ptr<const ReconcileStop>& stop() const noexcept { return stop_; }
  std::optional<std::chrono::steady_clock::time_point> deadline() const noexcept { return deadline_; }

  // Scoped replacement of the config / resource type / logger; restored when the guard dies.
  class Scope {
   public:
    ~Scope();
    Scope(const Scope&) = delete;
    Scope& operator=(const Scope&) = delete;

   private:
    friend class Context;
    // Takes the values to put back (the caller has already installed the replacement).
    Scope(Context& ctx, Config previous_config, KindInfo previous_resource_type, Logger previous_log);
    Context& ctx_;
    Config config_;
    KindInfo resource_type_;
    Logger log_;
  };
  [[nodiscard]] Scope with_config(Config config);
  [[nodiscard]] Scope with_resource_type(KindInfo type);
  [[nodiscard]] Scope with_log(Logger log);

 private:
  Stash stash_;
  Config config_;
  Config original_config_;
  std::map<std::string, Config> additional_configs_;
  Request request_;
  KindInfo resource_type_;
  KindInfo original_resource_type_;
  Logger log_;
  std::chrono::system_clock::time_point now_;
  std::shared_ptr<const std::atomic<bool>> cancelled_;
  std::shared_ptr<const ReconcileStop> stop_;
  std::optional<std::chrono::steady_clock::time_point> deadline_;
};

template <class T>
void Stasher<T>::store(Context& ctx, T value) const { ctx.stash().store(key_, std::move(value)); }
template <class T>
void Stasher<T>::clear(Context& ctx) const { ctx.stash().clear(key_); }
template <class T>
bool Stasher<T>::has(const Context& ctx) const { return ctx.stash().has(key_); }
template <class T>
T& Stasher<T>::retrieve_or_die(Context& ctx) const {
  std::any* v = ctx.stash().find(key_);
  if (!v) throw StashError("stash: no value for key \"" + key_ + "\"");
  T* typed = std::any_cast<T>(v);
  if (!typed) throw StashError("stash: value for key \"" + key_ + "\" holds another type");
  return *typed;
}
template <class T>
std::optional<T> Stasher<T>::retrieve(const Context& ctx) const {
  const std::any* v = ctx.stash().find(key_);
  if (!v) return std::nullopt;
  const T* typed = std::any_cast<T>(v);
  if (!typed) throw StashError("stash: value for key \"" + key_ + "\" holds another type");
  return *typed;
}

}  // namespace rr

// track_and_get & co. (declared in config.hpp) need the complete Context.
#include "rr/reconcilers/config_track.hpp"  // IWYU pragma: export
