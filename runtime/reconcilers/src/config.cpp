// Config accessors and the default Config over one client.
#include "rr/reconcilers/config.hpp"

#include <stdexcept>

namespace rr {

Client& Config::api() const {
  if (!client) throw std::logic_error("rr::Config has no client (was it built with make_config?)");
  return *client;
}

Client& Config::reader() const { return api_reader ? *api_reader : api(); }

Config make_config(std::shared_ptr<Client> client, std::chrono::nanoseconds sync_period) {
  Config config;
  config.client = client;
  // A fresh tracker per config (reconcilerio/runtime#626). Tracks live two resync periods so the
  // periodic resync renews them; make_tracker turns a zero lease into 20 h (sharp edge Q15).
  config.tracker = make_tracker(2 * sync_period);
  config.recorder = make_client_event_recorder(std::move(client));
  config.sync_period = sync_period;
  return config;
}

}  // namespace rr
