// Where calls hide: behind a type alias, in a helper function, in a lambda, in a template (one
// call site, one rule per kind it is instantiated with), a kind whose traits are computed by a
// constexpr function (Clang's constant evaluator), and a kind chosen at run time.
#include "k8s/apps/v1/deployment.hpp"
#include "k8s/apps/v1/stateful_set.hpp"
#include "k8s/core/v1/secret.hpp"
#include "rr/core/json.hpp"
#include "rr/reconcilers/context.hpp"

namespace cases {

// A kind written by hand, its plural computed: only constant evaluation knows it is "gadgets".
struct Gadget {};
constexpr std::string_view gadget_plural() { return std::string_view("gadgets and more").substr(0, 7); }

}  // namespace cases

template <>
struct rr::ResourceTraits<cases::Gadget> {
  static constexpr std::string_view group = "example.dev";
  static constexpr std::string_view version = "v1";
  static constexpr std::string_view kind = "Gadget";
  static constexpr std::string_view plural = cases::gadget_plural();
  static constexpr std::string_view list_kind = "GadgetList";
  static constexpr Scope scope = Scope::Cluster;
  static constexpr bool has_status = false;
};

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
  (void)client.list(rr::kind_info_of<Gadget>(), {});
}

}  // namespace cases
