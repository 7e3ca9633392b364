// Reactors: hooks the test client runs before each call reaches the store (client-go's
// SimpleReactor as reconciler.io uses it). A reactor is matched on (verb, kind), "*" matching
// anything; the matching reactors run in the order listed and the first that handles the call
// decides:
//
//   - Reaction::fail(error)     the call throws: an error carrying a Status as rr::ApiError (so
//                               is_not_found & co. work), any other error as std::runtime_error
//                               with its message;
//   - Reaction::respond(object) the call returns `object` and the store is not touched (Q11:
//                               reconciler.io cannot fake a success);
//   - Reaction::stop()          no later reactor runs and the call goes on to the store (a
//                               reactor may have changed the object on its way).
//
// Verbs: get, list, create, update, patch, delete, delete-collection. Status calls carry
// subresource "status". The kind of a list call is the list kind ("TestResourceList").
#pragma once
#include <cstddef>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/core/fwd.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/testing/json_value.hpp"

namespace rr::testing {

struct ActionCall {
  std::string verb{};
  std::string kind{};
};

struct Action {
  std::string verb{};
  std::string kind{};  // the Kind, or the list kind for "list"
  KindInfo kind_info{};
  std::string namespace_{};
  std::string name{};         // "" for list and delete-collection
  std::string subresource{};  // "" or "status"
  Json* object = nullptr;     // create/update: the object being sent; a reactor may change it
  std::optional<PatchType> patch_type{};
  std::string patch{};                               // patch: the body
  const ListOptions* list_options = nullptr;         // list, delete-collection
  const std::vector<ActionCall>* history = nullptr;  // every call of the client so far, this one included

  bool matches(std::string_view verb_pattern, std::string_view kind_pattern) const noexcept;
  // Calls so far (this one included) matching the patterns.
  std::size_t calls(std::string_view verb_pattern, std::string_view kind_pattern) const noexcept;
};

struct Reaction {
  bool handled = false;
  Error error{};
  std::optional<JsonValue> result{};  // respond(): the answer (result->get())

  static Reaction pass() { return {}; }
  static Reaction stop() { return {true, {}, std::nullopt}; }
  static Reaction fail(Error error) { return {true, std::move(error), std::nullopt}; }
  static Reaction respond(Json result);
};

using ReactionFunc = std::function<Reaction(Action&)>;

struct Reactor {
  std::string verb = "*";
  std::string kind = "*";
  ReactionFunc react{};
};

struct InduceFailureOpts {
  Error error{};              // default: "inducing failure for <verb> <Kind>"
  std::string namespace_{};   // "" = any
  std::string name{};         // "" = any
  std::string subresource{};  // "" = the resource and its subresources alike
};

// Makes matching calls fail (reconciler.io's InduceFailure).
Reactor induce_failure(std::string verb, std::string kind, InduceFailureOpts opts = {});

// Fails the (max_calls+1)-th and later calls matching (verb, kind) with
// "<verb> <kind> called <n> times, expected <max> call(s)". Counts from the client's own history,
// so a table can be run any number of times (Q8: reconciler.io's version ignores its arguments).
Reactor called_at_most_times(std::string verb, std::string kind, std::size_t max_calls);

// Runs `reactors` over `action`; the first reaction that handles it, or a pass.
Reaction react(const std::vector<Reactor>& reactors, Action& action);

}  // namespace rr::testing

// Instantiated once in rr_testing (the tables' lists, copied and destroyed in every test unit).
extern template class std::vector<rr::testing::Reactor>;
