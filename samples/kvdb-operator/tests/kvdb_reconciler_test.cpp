// The whole KeyValueStore reconciler (rr::ResourceReconciler running Secret, Service,
// StatefulSet and DisruptionBudget in order), as the controller runs it for one request: every
// write it makes, every event, the status it ends with. docs/testing-reconcilers.md describes
// every field of a case.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using kvdb_test::all_ready;
using kvdb_test::condition;
using kvdb_test::conditions;
using kvdb_test::disruption_budget;
using kvdb_test::fresh_password;
using kvdb_test::image_1_0;
using kvdb_test::image_1_1;
using kvdb_test::observed;
using kvdb_test::rolling;
using kvdb_test::scaling;
using kvdb_test::secret;
using kvdb_test::secret_name;
using kvdb_test::service;
using kvdb_test::stateful_set;
using kvdb_test::stored_password;
using kvdb_test::test_namespace;
using kvdb_test::up_to_date;
using rr::testing::new_event;

}  // namespace

RR_RECONCILER_TESTS("KeyValueStoreReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return kvdb::KeyValueStoreReconciler(config, kvdb_test::hooks());
}) {
  const rr::Request request{test_namespace, "test-kvdb"};
  // A new KeyValueStore, as kubectl creates it (no status).
  const auto store = kvdb_test::store();
  // Every child as the cluster holds it once the pods are up: the password generated on an
  // earlier reconcile, three ready pods of 1.0.
  const auto stored = secret(stored_password);
  const auto running = observed(stateful_set().uid("sts-uid").generation(1));
  const auto converged = store.observed_generation(1)
                             .status_secret_name(secret_name)
                             .status_service_name("test-kvdb")
                             .status_ready_replicas(3)
                             .status_current_image(image_1_0)
                             .conditions(all_ready());
  const std::string starting = "0/3 replicas ready";
  const auto status_updated = new_event(store.get(), rr::event_normal, "StatusUpdated", "Updated status");
  const auto sts_updated = new_event(store.get(), rr::event_normal, "Updated", R"(Updated StatefulSet "test-kvdb")");
  // The store's spec changed (generation 2) from the converged state.
  const auto changed = [&](const kvdb_test::KeyValueStoreDie& s) { return s.generation(2).observed_generation(1); };

  return rr::testing::ReconcilerTests{
      {"the KeyValueStore does not exist: nothing to do", {.request = request}},
      {"a new KeyValueStore: Secret, Service, StatefulSet and PodDisruptionBudget created, status written",
       {
           .request = request,
           .given_objects = {store.get()},
           .expect_events =
               {
                   new_event(store.get(), rr::event_normal, "Created", R"(Created Secret "test-kvdb-password")"),
                   new_event(store.get(), rr::event_normal, "Created", R"(Created Service "test-kvdb")"),
                   new_event(store.get(), rr::event_normal, "Created", R"(Created StatefulSet "test-kvdb")"),
                   new_event(store.get(), rr::event_normal, "Created", R"(Created PodDisruptionBudget "test-kvdb")"),
                   status_updated,
               },
           .expect_creates = {secret(fresh_password).get(), service().get(), stateful_set().get(),
                              disruption_budget().get()},
           .expect_status_updates = {store.observed_generation(1)
                                         .status_secret_name(secret_name)
                                         .status_service_name("test-kvdb")
                                         .status_ready_replicas(0)
                                         .status_current_image(image_1_0)
                                         .conditions(conditions({
                                             .budget = condition("DisruptionBudgetReady", "True", "Protected"),
                                             .ready = condition("Ready", "Unknown", "ScalingUp", starting),
                                             .scaling = scaling(0, 3),
                                             .secret = condition("SecretReady", "True", "PasswordSet"),
                                             .service = condition("ServiceReady", "True", "Exposed"),
                                             .stateful_set = condition("StatefulSetReady", "Unknown", "ScalingUp",
                                                                       starting),
                                             .updating = up_to_date(),
                                         }))
                                         .get()},
       }},
      // The password survives: the desired Secret carries "fresh-password", the stored one stays.
      {"converged: a second reconcile writes nothing, the password is kept",
       {
           .request = request,
           .given_objects = {converged.get(), stored.get(), service().get(), running.get(), disruption_budget().get()},
       }},
      {"the pods came up: Ready turns True",
       {
           .request = request,
           .given_objects = {converged.status_ready_replicas(0).conditions({}).get(), stored.get(), service().get(),
                             running.get(), disruption_budget().get()},
           .expect_events = {status_updated},
           .expect_status_updates = {converged.get()},
       }},
      {"scaled from 3 to 5: the StatefulSet follows, Scaling True",
       {
           .request = request,
           .given_objects = {changed(converged.spec_replicas(5)).get(), stored.get(), service().get(), running.get(),
                             disruption_budget().get()},
           .expect_events = {sts_updated, status_updated},
           .expect_updates = {running.spec_replicas(5).get()},
           .expect_status_updates = {converged.spec_replicas(5)
                                         .observed_generation(2)
                                         .conditions(conditions({
                                             .budget = condition("DisruptionBudgetReady", "True", "Protected"),
                                             .ready = condition("Ready", "Unknown", "ScalingUp", "3/5 replicas ready"),
                                             .scaling = scaling(3, 5),
                                             .secret = condition("SecretReady", "True", "PasswordSet"),
                                             .service = condition("ServiceReady", "True", "Exposed"),
                                             .stateful_set = condition("StatefulSetReady", "Unknown", "ScalingUp",
                                                                       "3/5 replicas ready"),
                                             .updating = up_to_date(),
                                         }))
                                         .get()},
       }},
      {"a new image: the StatefulSet's template changes, Updating True",
       {
           .request = request,
           .given_objects = {changed(converged.spec_image(image_1_1)).get(), stored.get(), service().get(),
                             running.get(), disruption_budget().get()},
           .expect_events = {sts_updated, status_updated},
           .expect_updates = {running
                                  .spec([](k8s::apps::v1::StatefulSetSpec& spec) {
                                    spec.template_.spec->containers.front().image = image_1_1;
                                  })
                                  .get()},
           .expect_status_updates = {converged.spec_image(image_1_1)
                                         .observed_generation(2)
                                         .conditions(conditions({
                                             .budget = condition("DisruptionBudgetReady", "True", "Protected"),
                                             .ready = condition("Ready", "Unknown", "RollingUpdate",
                                                                rolling(0, 3).message),
                                             .scaling = scaling(3, 3),
                                             .secret = condition("SecretReady", "True", "PasswordSet"),
                                             .service = condition("ServiceReady", "True", "Exposed"),
                                             .stateful_set = condition("StatefulSetReady", "Unknown", "RollingUpdate",
                                                                       rolling(0, 3).message),
                                             .updating = rolling(0, 3),
                                         }))
                                         .get()},
       }},
  };
}
