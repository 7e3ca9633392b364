#include "rr/testing/reactor.hpp"

#include <algorithm>

#include "rr/core/json.hpp"

namespace rr::testing {
namespace {

bool matches_pattern(std::string_view pattern, std::string_view value) { return pattern == "*" || pattern == value; }

}  // namespace

bool Action::matches(std::string_view verb_pattern, std::string_view kind_pattern) const noexcept {
  return matches_pattern(verb_pattern, verb) && matches_pattern(kind_pattern, kind);
}

std::size_t Action::calls(std::string_view verb_pattern, std::string_view kind_pattern) const noexcept {
  if (!history) return 0;
  return static_cast<std::size_t>(std::count_if(history->begin(), history->end(), [&](const ActionCall& c) {
    return matches_pattern(verb_pattern, c.verb) && matches_pattern(kind_pattern, c.kind);
  }));
}

Reaction Reaction::respond(Json result) { return {true, {}, JsonValue(std::move(result))}; }

Reactor induce_failure(std::string verb, std::string kind, InduceFailureOpts opts) {
  Reactor reactor{verb, kind, {}};
  reactor.react = [opts = std::move(opts)](Action& action) {
    if (!opts.namespace_.empty() && opts.namespace_ != action.namespace_) return Reaction::pass();
    if (!opts.name.empty() && opts.name != action.name) return Reaction::pass();
    if (!opts.subresource.empty() && opts.subresource != action.subresource) return Reaction::pass();
    if (opts.error) return Reaction::fail(opts.error);
    return Reaction::fail(Error::make("inducing failure for " + action.verb + " " + action.kind));
  };
  return reactor;
}

Reactor called_at_most_times(std::string verb, std::string kind, std::size_t max_calls) {
  Reactor reactor{verb, kind, {}};
  reactor.react = [verb, kind, max_calls](Action& action) {
    const std::size_t calls = action.calls(verb, kind);
    if (calls <= max_calls) return Reaction::pass();
    return Reaction::fail(Error::make(verb + " " + kind + " called " + std::to_string(calls) + " times, expected " +
                                      std::to_string(max_calls) + " call(s)"));
  };
  return reactor;
}

Reaction react(const std::vector<Reactor>& reactors, Action& action) {
  for (const auto& reactor : reactors) {
    if (!reactor.react || !action.matches(reactor.verb, reactor.kind)) continue;
    Reaction reaction = reactor.react(action);
    if (reaction.handled) return reaction;
  }
  return Reaction::pass();
}

}  // namespace rr::testing

template class std::vector<rr::testing::Reactor>;
