// rr::Error: a Go-style error value. Empty means success. Errors wrap (a prefix, like
// fmt.Errorf("...: %w")) and join (errors.Join); is() looks for a sentinel anywhere in the tree,
// status() finds the Kubernetes Status of an API error anywhere in it.
//
// Hooks return rr::Error; an exception thrown by a hook (an rr::ApiError from the client, any
// std::exception) is caught by the reconciler that called the hook and becomes an rr::Error.
#pragma once
#include <exception>
#include <initializer_list>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "rr/client/api_error.hpp"

namespace rr {

class Error {
 public:
  Error() = default;  // no error
  // A new error with this message (errors.New).
  static Error make(std::string message);
  // An API error carrying the server's Status.
  static Error api(Status status);
  // From an exception: rr::ApiError keeps its Status; others keep what().
  static Error from(const std::exception& e);
  // From the exception being handled (call inside a catch block); unknown exceptions get a
  // generic message.
  static Error from_current_exception();
  // errors.Join: empty errors are dropped; no errors → success; one error → that error.
  static Error join(std::vector<Error> errors);

  explicit operator bool() const noexcept { return node_ != nullptr; }
  bool ok() const noexcept { return node_ == nullptr; }
  // The full message (joined errors separated by "\n", as errors.Join prints).
  std::string message() const;
  // fmt.Errorf("<prefix>: %w", e) — keeps sentinels and Status reachable.
  Error wrap(std::string prefix) const;
  // True when `sentinel` (compared by identity) is this error or is wrapped/joined inside it.
  bool is(const Error& sentinel) const noexcept;
  // The Status of the first API error in the tree.
  std::optional<Status> status() const;
  // The joined children (empty for a plain or wrapped error).
  std::vector<Error> unwrap_joined() const;
  // Identity: the same error object (sentinels, or copies of one error).
  bool same(const Error& other) const noexcept { return node_ == other.node_; }

  struct Node;

 private:
  explicit Error(std::shared_ptr<const Node> node) : node_(std::move(node)) {}
  std::shared_ptr<const Node> node_;
};

// Predicates over an error's Status (false for errors without one).
bool is_not_found(const Error& e);
bool is_already_exists(const Error& e);
bool is_conflict(const Error& e);
bool is_invalid(const Error& e);
bool is_forbidden(const Error& e);
// The Status reason of an API error ("" when none).
std::string reason_of(const Error& e);

// Sentinels (reconciler.io's, same meaning).
// Not logged and not turned into an event; at the root it becomes a silent rate-limited requeue.
const Error& err_quiet();
// Stops the remaining sub-reconcilers; the root then carries on as if there were no error.
// Wraps err_quiet().
const Error& err_halt_sub_reconcilers();
// The root skips the status write for this request.
const Error& err_skip_status_update();
// Recorded on status already: join(err_quiet, err_halt_sub_reconcilers).
const Error& err_durable();

}  // namespace rr
