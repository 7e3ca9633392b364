// rr::Error: an immutable tree of nodes. A leaf has a message (and maybe a Status); a wrap adds a
// prefix to one child; a join holds several. Sentinels are compared by node identity.
#include "rr/reconcilers/error.hpp"

#include <utility>

namespace rr {

struct Error::Node {
  enum class Shape { Leaf, Wrap, Join };
  Shape shape = Shape::Leaf;
  std::string text;               // Leaf: the message; Wrap: the prefix
  std::optional<Status> status;   // Leaf of an API error
  std::vector<Error> children;    // Wrap: exactly one; Join: two or more
};

Error Error::make(std::string message) {
  auto node = std::make_shared<Node>();
  node->text = std::move(message);
  return Error(std::move(node));
}

Error Error::api(Status status) {
  auto node = std::make_shared<Node>();
  node->text = status.message.empty() ? (status.reason.empty() ? "API error" : status.reason) : status.message;
  node->status = std::move(status);
  return Error(std::move(node));
}

Error Error::from(const std::exception& e) {
  if (const auto* api_error = dynamic_cast<const ApiError*>(&e)) return api(api_error->status());
  return make(e.what());
}

Error Error::from_current_exception() {
  if (!std::current_exception()) return make("no exception is being handled");
  try {
    throw;
  } catch (const std::exception& e) {
    return from(e);
  } catch (...) {
    return make("unknown exception");
  }
}

Error Error::join(std::vector<Error> errors) {
  std::vector<Error> kept;
  kept.reserve(errors.size());
  for (auto& e : errors) {
    if (e) kept.push_back(std::move(e));
  }
  if (kept.empty()) return {};
  if (kept.size() == 1) return std::move(kept.front());
  auto node = std::make_shared<Node>();
  node->shape = Node::Shape::Join;
  node->children = std::move(kept);
  return Error(std::move(node));
}

std::string Error::message() const {
  if (!node_) return {};
  switch (node_->shape) {
    case Node::Shape::Leaf:
      return node_->text;
    case Node::Shape::Wrap:
      return node_->text + ": " + node_->children.front().message();
    case Node::Shape::Join: {
      std::string out;
      for (const auto& child : node_->children) {
        if (!out.empty()) out += '\n';
        out += child.message();
      }
      return out;
    }
  }
  return {};
}

Error Error::wrap(std::string prefix) const {
  if (!node_) return {};  // fmt.Errorf("x: %w", nil) is not an error worth inventing here
  auto node = std::make_shared<Node>();
  node->shape = Node::Shape::Wrap;
  node->text = std::move(prefix);
  node->children.push_back(*this);
  return Error(std::move(node));
}

bool Error::is(const Error& sentinel) const noexcept {
  if (!sentinel.node_) return !node_;  // errors.Is(err, nil) == (err == nil)
  if (!node_) return false;
  if (node_ == sentinel.node_) return true;
  for (const auto& child : node_->children) {
    if (child.is(sentinel)) return true;
  }
  return false;
}

std::optional<Status> Error::status() const {
  if (!node_) return std::nullopt;
  if (node_->status) return node_->status;
  for (const auto& child : node_->children) {
    if (auto s = child.status()) return s;
  }
  return std::nullopt;
}

std::vector<Error> Error::unwrap_joined() const {
  if (!node_ || node_->shape != Node::Shape::Join) return {};
  return node_->children;
}

bool is_not_found(const Error& e) {
  auto s = e.status();
  return s && is_not_found(*s);
}
bool is_already_exists(const Error& e) {
  auto s = e.status();
  return s && is_already_exists(*s);
}
bool is_conflict(const Error& e) {
  auto s = e.status();
  return s && is_conflict(*s);
}
bool is_invalid(const Error& e) {
  auto s = e.status();
  return s && is_invalid(*s);
}
bool is_forbidden(const Error& e) {
  auto s = e.status();
  return s && is_forbidden(*s);
}
std::string reason_of(const Error& e) {
  auto s = e.status();
  return s ? s->reason : std::string();
}

// Function-local statics: one node each for the life of the program, so identity comparison works
// across translation units and there is no static-initialisation-order hazard.
const Error& err_quiet() {
  static const Error e = Error::make("quiet errors are returned as errors, but not logged or recorded");
  return e;
}
const Error& err_halt_sub_reconcilers() {
  static const Error e = err_quiet().wrap("stop processing SubReconcilers, without returning an error");
  return e;
}
const Error& err_skip_status_update() {
  static const Error e = Error::make("skip ResourceReconciler status update");
  return e;
}
const Error& err_durable() {
  static const Error e = Error::join({err_quiet(), err_halt_sub_reconcilers()});
  return e;
}

}  // namespace rr
