// Flow control over sub-reconcilers: IfThen, While, ForEach (with its Cursor), TryCatch and
// OverrideSetup (reconciler.io flow.go). Every hook may throw; the exception becomes the
// reconciler's error.
#pragma once
#include <any>
#include <cstddef>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/reconcilers/sub_reconciler.hpp"

namespace rr {

namespace flow_detail {

// Puts a value under one stash key for a scope and restores what was there before (or nothing)
// when the scope ends, so nested loops see their own value and the outer one comes back after.
class ScopedStashValue {
 public:
  ScopedStashValue(Stash& stash, std::string key)
      : stash_(stash), key_(std::move(key)), had_previous_(stash_.has(key_)), previous_(stash_.clear(key_)) {}
  ~ScopedStashValue() {
    if (had_previous_) {
      stash_.store(key_, std::move(previous_));
    } else {
      stash_.clear(key_);
    }
  }
  ScopedStashValue(const ScopedStashValue&) = delete;
  ScopedStashValue& operator=(const ScopedStashValue&) = delete;
  void set(std::any value) { stash_.store(key_, std::move(value)); }

 private:
  Stash& stash_;
  std::string key_;
  bool had_previous_;
  std::any previous_;
};

// The compiler's spelling of a type (no RTTI): "rrtest::v1::TestChild", "int". Stable for a
// given compiler; g++ and clang may spell library types differently.
template <class X>
constexpr std::string_view type_name() {
  std::string_view f = __PRETTY_FUNCTION__;  // "... [with X = int; ...]" (g++), "... [X = int]" (clang)
  const std::size_t start = f.find("X = ") + 4;
  std::size_t end = f.find(';', start);
  if (end == std::string_view::npos) end = f.rfind(']');
  return f.substr(start, end - start);
}

// One error object per limit, so is_max_iterations() recognises them by identity (through wraps
// and joins) while the message stays reconciler.io's "exceeded max iterations: <n>".
struct MaxIterationsErrors {
  std::mutex mutex;
  std::map<int, Error> by_limit;
};
inline MaxIterationsErrors& max_iterations_errors() {
  static MaxIterationsErrors registry;
  return registry;
}

// Calls a value-returning hook; an exception becomes the returned error.
template <class Out, class F>
Error call_value_hook(Out& out, F&& f) noexcept {
  return call_hook([&] {
    out = std::forward<F>(f)();
    return Error{};
  });
}

}  // namespace flow_detail

// ---------------------------------------------------------------------------------------------
// IfThen: if_(ctx, r) chooses then (required) or else_ (optional; missing → Result{}).

template <class T>
struct IfThen {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  std::function<bool(Context&, T&)> if_{};
  SubReconciler<T> then{};
  SubReconciler<T> else_{};

  std::string display_name() const { return name.empty() ? "IfThen" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    bool condition = false;
    if (Error e = flow_detail::call_value_hook(condition, [&] { return if_(ctx, resource); })) return e;
    if (condition) return then.reconcile(ctx, resource);
    return else_.reconcile(ctx, resource);  // an empty else_ gives Result{}
  }

  void validate(Validation& v) const {
    if (!if_) v.fail("IfThen must implement if_");
    if (!then) v.fail("IfThen must implement then");
    if (v.recursive()) {
      then.validate(v);
      else_.validate(v);
    }
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
    then.setup(s);
    else_.setup(s);
  }
};

// ---------------------------------------------------------------------------------------------
// While: calls reconciler while condition(ctx, r) holds, at most max_iterations times (0 means
// no limit); going past the limit is the error "exceeded max iterations: <n>"
// (is_max_iterations). Results are aggregated; the first error stops the loop.

inline constexpr std::string_view iteration_stash_key = "reconciler.io/runtime:iteration";

// The index of the innermost While iteration running, -1 outside any loop.
inline int retrieve_iteration(const Context& ctx) {
  const std::any* v = ctx.stash().find(iteration_stash_key);
  const int* i = v ? std::any_cast<int>(v) : nullptr;
  return i ? *i : -1;
}

inline Error max_iterations_error(int iterations) {
  auto& registry = flow_detail::max_iterations_errors();
  std::lock_guard lock(registry.mutex);
  auto [it, inserted] = registry.by_limit.try_emplace(iterations);
  if (inserted) it->second = Error::make("exceeded max iterations: " + std::to_string(iterations));
  return it->second;
}

// True when a While went past its limit somewhere in this error (wrapped or joined).
inline bool is_max_iterations(const Error& e) {
  if (!e) return false;
  auto& registry = flow_detail::max_iterations_errors();
  std::lock_guard lock(registry.mutex);
  for (const auto& [limit, sentinel] : registry.by_limit) {
    if (e.is(sentinel)) return true;
  }
  return false;
}

template <class T>
struct While {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  std::function<bool(Context&, T&)> condition{};
  SubReconciler<T> reconciler{};
  int max_iterations = 100;

  std::string display_name() const { return name.empty() ? "While" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    flow_detail::ScopedStashValue iteration(ctx.stash(), std::string(iteration_stash_key));
    Result aggregate;
    for (int i = 0;; ++i) {
      if (max_iterations != 0 && i >= max_iterations) return {aggregate, max_iterations_error(i)};
      auto step_log = ctx.with_log(ctx.log().named(std::to_string(i)));
      iteration.set(i);
      bool go_on = false;
      if (Error e = flow_detail::call_value_hook(go_on, [&] { return condition(ctx, resource); })) {
        return {aggregate, std::move(e)};
      }
      if (!go_on) break;
      Outcome step = reconciler.reconcile(ctx, resource);
      aggregate = aggregate_results(aggregate, step.result);
      if (step.error) return {aggregate, std::move(step.error)};
    }
    return aggregate;
  }

  void validate(Validation& v) const {
    if (!condition) v.fail("While must implement condition");
    if (!reconciler) v.fail("While must implement reconciler");
    if (max_iterations < 0) v.fail("While max_iterations must not be negative (0 means no limit)");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
    reconciler.setup(s);
  }
};

// ---------------------------------------------------------------------------------------------
// ForEach: calls reconciler once per item of items(ctx, r). The item being reconciled is in the
// stash as a Cursor under "reconciler.io/runtime:cursor:<Item type>" (retrieve_cursor<Item>).
// The first error stops the loop and returns the results of the *earlier* iterations. Once the
// loop ends the key holds what it held before, so ForEach loops over the same Item type nest.

template <class Item>
struct Cursor {
  std::size_t index = 0;
  std::size_t length = 0;
  Item item{};
  bool operator==(const Cursor&) const = default;
};

inline constexpr std::string_view cursor_stash_key_prefix = "reconciler.io/runtime:cursor:";

// The stasher of the innermost ForEach over Item (its key is not a stable interface).
template <class Item>
Stasher<Cursor<Item>> cursor_stasher() {
  return Stasher<Cursor<Item>>(std::string(cursor_stash_key_prefix) + std::string(flow_detail::type_name<Item>()));
}

// The cursor of the innermost ForEach over Item, nullopt outside such a loop.
template <class Item>
std::optional<Cursor<Item>> retrieve_cursor(const Context& ctx) {
  return cursor_stasher<Item>().retrieve(ctx);
}

template <class T, class Item>
struct ForEach {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  std::function<std::vector<Item>(Context&, T&)> items{};
  SubReconciler<T> reconciler{};

  std::string display_name() const { return name.empty() ? "ForEach" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    std::vector<Item> list;
    if (Error e = flow_detail::call_value_hook(list, [&] { return items(ctx, resource); })) return e;
    flow_detail::ScopedStashValue cursor(ctx.stash(), cursor_stasher<Item>().key());
    Result aggregate;
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto step_log = ctx.with_log(ctx.log().named(std::to_string(i)));
      cursor.set(Cursor<Item>{i, list.size(), list[i]});
      Outcome step = reconciler.reconcile(ctx, resource);
      if (step.error) return {aggregate, std::move(step.error)};
      aggregate = aggregate_results(aggregate, step.result);
    }
    return aggregate;
  }

  void validate(Validation& v) const {
    if (!items) v.fail("ForEach must implement items");
    if (!reconciler) v.fail("ForEach must implement reconciler");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const {
    reconciler.setup(s);
    if (on_setup) on_setup(s);
  }
};

// ---------------------------------------------------------------------------------------------
// TryCatch: calls try_; catch_(ctx, r, result, error) may replace the outcome; finally always
// runs and its result is aggregated in. An error from finally replaces the earlier error;
// otherwise the earlier error stands.

template <class T>
struct TryCatch {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  SubReconciler<T> try_{};
  std::function<Outcome(Context&, T&, Result, Error)> catch_{};
  SubReconciler<T> finally{};

  std::string display_name() const { return name.empty() ? "TryCatch" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    Outcome out = try_.reconcile(ctx, resource);
    if (catch_) {
      Outcome caught{out.result, Error{}};
      if (Error e = flow_detail::call_value_hook(caught, [&] { return catch_(ctx, resource, out.result, out.error); })) {
        caught = Outcome{out.result, std::move(e)};
      }
      out = std::move(caught);
    }
    if (finally) {
      Outcome fin = finally.reconcile(ctx, resource);
      out.result = aggregate_results(out.result, fin.result);
      if (fin.error) out.error = std::move(fin.error);
    }
    return out;
  }

  void validate(Validation& v) const {
    if (!try_) v.fail("TryCatch must implement try_");
    if (v.recursive()) {
      try_.validate(v);
      finally.validate(v);
    }
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
    try_.setup(s);
    finally.setup(s);
  }
};

// ---------------------------------------------------------------------------------------------
// OverrideSetup: setup calls only on_setup, never the nested reconciler's setup (for a nested
// reconciler whose watches are wrong in this place). Reconcile delegates; Result{} when empty.

template <class T>
struct OverrideSetup {
  std::string name{};
  std::function<void(Setup&)> on_setup{};
  SubReconciler<T> reconciler{};

  std::string display_name() const { return name.empty() ? "SkipSetup" : name; }

  Outcome reconcile(Context& ctx, T& resource) const {
    auto named = ctx.with_log(ctx.log().named(display_name()));
    return reconciler.reconcile(ctx, resource);
  }

  void validate(Validation& v) const {
    if (!on_setup && !reconciler) v.fail("OverrideSetup must implement at least one of on_setup or reconciler");
    if (v.recursive()) reconciler.validate(v);
  }

  void setup(Setup& s) const {
    if (on_setup) on_setup(s);
  }
};

}  // namespace rr
