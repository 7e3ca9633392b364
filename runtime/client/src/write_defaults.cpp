// with_field_owner / with_field_validation: a ForwardingClient that fills in a write's field
// manager and field validation when the caller left them out (controller-runtime's
// client.WithFieldOwner and client.WithFieldValidation).
#include <utility>

#include "rr/client/apply.hpp"
#include "rr/client/forwarding_client.hpp"
#include "rr/core/json.hpp"

namespace rr {

namespace {

class WriteDefaultsClient final : public ForwardingClient {
 public:
  WriteDefaultsClient(std::shared_ptr<Client> inner, WriteDefaults defaults)
      : ForwardingClient(std::move(inner)), defaults_(std::move(defaults)) {}
  WriteDefaultsClient(Client& inner, WriteDefaults defaults)
      : ForwardingClient(inner), defaults_(std::move(defaults)) {}

 protected:
  Json do_create(const KindInfo& kind, const Json& object, const WriteOptions& opts) override {
    return ForwardingClient::do_create(kind, object, with_defaults(opts));
  }
  Json do_update(const KindInfo& kind, const Json& object, const WriteOptions& opts) override {
    return ForwardingClient::do_update(kind, object, with_defaults(opts));
  }
  Json do_update_status(const KindInfo& kind, const Json& object, const WriteOptions& opts) override {
    return ForwardingClient::do_update_status(kind, object, with_defaults(opts));
  }
  Json do_patch(const KindInfo& kind, const ObjectKey& key, PatchType type, std::string_view body,
                std::string_view subresource, const WriteOptions& opts) override {
    return ForwardingClient::do_patch(kind, key, type, body, subresource, with_defaults(opts));
  }

 private:
  WriteOptions with_defaults(WriteOptions opts) const {
    if (opts.field_manager.empty()) opts.field_manager = defaults_.field_manager;
    if (opts.field_validation == FieldValidation::Default) opts.field_validation = defaults_.field_validation;
    return opts;
  }

  WriteDefaults defaults_;
};

}  // namespace

std::shared_ptr<Client> with_write_defaults(std::shared_ptr<Client> inner, WriteDefaults defaults) {
  return std::make_shared<WriteDefaultsClient>(std::move(inner), std::move(defaults));
}
std::shared_ptr<Client> with_write_defaults(Client& inner, WriteDefaults defaults) {
  return std::make_shared<WriteDefaultsClient>(inner, std::move(defaults));
}
std::shared_ptr<Client> with_field_owner(std::shared_ptr<Client> inner, std::string owner) {
  return with_write_defaults(std::move(inner), {.field_manager = std::move(owner)});
}
std::shared_ptr<Client> with_field_owner(Client& inner, std::string owner) {
  return with_write_defaults(inner, {.field_manager = std::move(owner)});
}
std::shared_ptr<Client> with_field_validation(std::shared_ptr<Client> inner, FieldValidation validation) {
  return with_write_defaults(std::move(inner), {.field_validation = validation});
}
std::shared_ptr<Client> with_field_validation(Client& inner, FieldValidation validation) {
  return with_write_defaults(inner, {.field_validation = validation});
}

}  // namespace rr
