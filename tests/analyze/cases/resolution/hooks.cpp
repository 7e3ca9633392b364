// Where calls hide: behind a type alias, in a helper function, in a lambda, in a template (one
// call site, one rule per kind it is instantiated with), and a kind chosen at run time.
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/stateful_set.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

using Workload = k8s::apps::v1::Deployment;
using Credentials = k8s::core::v1::Secret;

namespace {

Credentials read_credentials(rr::Client& client, const std::string& ns) { return client.get<Credentials>(ns, "db"); }

template <class T>
void scale_down(rr::Client& client, const T& object) {
  (void)client.update(object);
}

}  // namespace

void run(rr::Client& client, const Workload& w, const k8s::apps::v1::StatefulSet& s, const rr::KindInfo& chosen) {
  (void)read_credentials(client, "ns");
  auto remove_all = [&client](const Workload& each) { client.remove(each); };
  remove_all(w);
  scale_down(client, w);
  scale_down(client, s);
  (void)client.list(chosen, {});
}

}  // namespace cases
