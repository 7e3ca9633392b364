// WithConfig<T>: the nested reconcilers run with another Config (another client: a service
// account with other permissions, another cluster). Experimental in reconciler.io too.
//
// config(ctx, current) gives the config to use; it runs at setup (with a fresh context that has
// no request; the nested reconciler's watches are collected against the new config) and again
// for every request. Inside, ctx.config() is the new config; ctx.original_config() is still the
// one that loaded the resource (finalizer patches and events on the resource use it). The
// previous config is back once the nested reconciler returns.
//
// Decision Q9 (docs/reconcilers-flow.md): Config is a value copied whole. `current` carries every
// member (client, api_reader, tracker, recorder, sync_period) and the returned config is used as
// it is; no member is dropped on the way, unlike reconciler.io's derived configs that lose the
// event recorder.
#pragma once
#include <functional>
#include <string>
#include <utility>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

template <class T>
struct WithConfig {
  std::string name{};
  std::function<Config(Context&, const Config& current)> config{};
  SubReconciler<T> reconciler{};

  std::string display_name() const { return name.empty() ? "WithConfig" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    Config next;
    Error failed = call_hook([&] {
      next = config(ctx, ctx.config());
      return Error{};
    });
    if (failed) return failed;
    auto scoped = ctx.with_config(std::move(next));
    return reconciler.reconcile(ctx, resource);
  }

  void validate(Validation& v) const {
    if (!config) v.fail("WithConfig must implement config");
    if (!reconciler) v.fail("WithConfig must implement reconciler");
    if (v.recursive()) reconciler.validate(v);
  }

  // Throws what config throws: a controller cannot start without its config.
  void setup(Setup& s) const {
    ContextOptions options;
    options.config = s.config();
    Context setup_ctx(std::move(options));
    Setup nested(config(setup_ctx, s.config()));
    reconciler.setup(nested);
    for (const auto& w : nested.watches()) {
      switch (w.mode) {
        case WatchRequest::Mode::For: s.for_kind(w.kind); break;
        case WatchRequest::Mode::Owns: s.owns(w.kind); break;
        case WatchRequest::Mode::Tracked: s.watches_tracked(w.kind); break;
      }
    }
  }
};

}  // namespace rr
