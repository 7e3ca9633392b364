// rr::Informer: handler registration, delivery and store reads. The list/watch loop is in
// informer_reflector.cpp.
#include <exception>
#include <stdexcept>

#include "informer_impl.hpp"

namespace rr {

namespace {

// A handler that throws must not end the informer: the failure is reported and the next
// handler runs.
template <class F>
void call_handler(const Informer::Impl& impl, F&& f) {
  try {
    f();
  } catch (const std::exception& e) {
    impl.report(std::string("event handler failed: ") + e.what());
  } catch (...) {
    impl.report("event handler failed");
  }
}

}  // namespace

void Informer::Impl::report(std::string_view message) const {
  if (options.on_error) options.on_error(std::string(kind.gvk.kind) + " informer: " + std::string(message));
}

void Informer::Impl::deliver_add(const Json& object, bool initial) {
  for (auto& entry : handlers) {
    auto& h = entry.second;  // a plain reference: clang 14 cannot capture structured bindings
    auto& add = initial && h.on_initial_add ? h.on_initial_add : h.on_add;
    if (add) call_handler(*this, [&] { add(object); });
  }
}

void Informer::Impl::deliver_update(const Json& old_object, const Json& new_object) {
  for (auto& entry : handlers) {
    auto& h = entry.second;
    if (h.on_update) call_handler(*this, [&] { h.on_update(old_object, new_object); });
  }
}

void Informer::Impl::deliver_delete(const Json& object) {
  for (auto& entry : handlers) {
    auto& h = entry.second;
    if (h.on_delete) call_handler(*this, [&] { h.on_delete(object); });
  }
}

Informer::Informer(std::shared_ptr<Client> client, KindInfo kind, InformerOptions options)
    : impl_(std::make_unique<Impl>(std::move(client), std::move(kind), std::move(options))) {
  if (!impl_->client) throw std::invalid_argument("rr::Informer needs a client");
}

Informer::~Informer() = default;

const KindInfo& Informer::kind() const noexcept { return impl_->kind; }
bool Informer::metadata_only() const noexcept { return impl_->options.metadata_only; }

void Informer::run(std::stop_token stop) {
  if (impl_->running.exchange(true)) throw std::logic_error("rr::Informer::run called twice");
  impl_->run(std::move(stop));
}

void Informer::set_namespaces(std::vector<std::string> namespaces) {
  if (!impl_->options.dynamic_namespaces) {
    throw std::logic_error("rr::Informer::set_namespaces needs InformerOptions::dynamic_namespaces");
  }
  impl_->set_namespaces(std::move(namespaces));
}

bool Informer::has_synced() const {
  std::lock_guard lock(impl_->state_mutex);
  return impl_->all_synced();
}

bool Informer::wait_for_sync(std::stop_token stop, std::chrono::steady_clock::duration timeout) const {
  std::unique_lock lock(impl_->state_mutex);
  return impl_->sync_cv.wait_until(lock, stop, std::chrono::steady_clock::now() + timeout,
                                   [&] { return impl_->all_synced(); });
}

Informer::HandlerId Informer::add_handlers(InformerHandlers handlers) {
  std::lock_guard lock(impl_->dispatch_mutex);
  const HandlerId id = impl_->next_handler++;
  auto& added = impl_->handlers.emplace(id, std::move(handlers)).first->second;
  auto& add = added.on_initial_add ? added.on_initial_add : added.on_add;
  // The store holds only objects of streams that have synced (a stream's initial list enters it
  // whole, under this lock): they are replayed, the rest will come as events.
  if (add) {
    for (const auto& object : impl_->store.list()) call_handler(*impl_, [&] { add(*object); });
  }
  return id;
}

void Informer::remove_handlers(HandlerId id) {
  std::lock_guard lock(impl_->dispatch_mutex);
  impl_->handlers.erase(id);
}

void Informer::add_index(std::string name, IndexFn fn) { impl_->store.add_index(std::move(name), std::move(fn)); }

std::optional<Json> Informer::get(const ObjectKey& key) const {
  if (auto object = impl_->store.get_stored(key)) return object->copy();
  return std::nullopt;
}

std::vector<Json> Informer::list() const {
  std::vector<Json> out;
  for (const auto& object : impl_->store.list_stored()) out.push_back(object.copy());
  return out;
}

std::vector<Json> Informer::by_index(std::string_view index, std::string_view value) const {
  std::vector<Json> out;
  for (const auto& object : impl_->store.by_index_stored(index, value)) out.push_back(object.copy());
  return out;
}

const ObjectStore& Informer::store() const noexcept { return impl_->store; }

std::string Informer::last_resource_version() const {
  std::lock_guard lock(impl_->state_mutex);
  // Several namespaces' streams have no one version in common.
  return !impl_->per_namespace && impl_->streams.size() == 1 ? impl_->streams.front()->last_resource_version
                                                             : std::string();
}

}  // namespace rr
