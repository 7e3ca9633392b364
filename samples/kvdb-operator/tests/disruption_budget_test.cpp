// Step DisruptionBudget (child PodDisruptionBudget) on its own: at most one of the store's pods
// is disrupted at a time (a drain, an eviction), whatever spec.replicas says.
// docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using kvdb::KeyValueStore;
using kvdb_test::condition;
using kvdb_test::conditions;
using kvdb_test::disruption_budget;
using rr::testing::new_event;
using Case = rr::testing::SubReconcilerTestCase<KeyValueStore>;

}  // namespace

RR_SUB_RECONCILER_TESTS("KeyValueStoreDisruptionBudgetReconciler", KeyValueStore, [](const Case&, const rr::Config&) {
  return kvdb::KeyValueStoreDisruptionBudgetReconciler(kvdb_test::hooks());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto store = kvdb_test::store().conditions(conditions({}));
  const auto protected_ = conditions({.budget = condition("DisruptionBudgetReady", "True", "Protected")});
  const auto updated_event = new_event(store.get(), rr::event_normal, "Updated",
                                       R"(Updated PodDisruptionBudget "test-kvdb")");
  const std::string not_owned =
      R"(There is an existing PodDisruptionBudget "test-kvdb" that the KeyValueStore does not own.)";

  return rr::testing::SubReconcilerTests<KeyValueStore>{
      {"creates the PodDisruptionBudget: maxUnavailable 1 over the store's pods",
       {
           .resource = store,
           .expect_resource = store.conditions(protected_),
           .expect_events = {new_event(store.get(), rr::event_normal, "Created",
                                       R"(Created PodDisruptionBudget "test-kvdb")")},
           .expect_creates = {disruption_budget().get()},
       }},
      // maxUnavailable, not a quorum minAvailable: nothing depends on the replica count.
      {"the store scaled to 5: the budget is as desired, nothing written",
       {
           .resource = store.spec_replicas(5),
           .given_objects = {disruption_budget().status_disruptions_allowed(1).get()},
           .expect_resource = store.spec_replicas(5).conditions(protected_),
       }},
      {"someone changed the budget to minAvailable 2: it is put back",
       {
           .resource = store,
           .given_objects = {disruption_budget()
                                 .uid("budget-uid")
                                 .spec([](k8s::policy::v1::PodDisruptionBudgetSpec& spec) {
                                   spec.max_unavailable.reset();
                                   spec.min_available = rr::IntOrString(2);
                                 })
                                 .get()},
           .expect_resource = store.conditions(protected_),
           .expect_events = {updated_event},
           .expect_updates = {disruption_budget().uid("budget-uid").get()},
       }},
      {"a PodDisruptionBudget of that name that the store does not own: DisruptionBudgetReady False NotOwned",
       {
           .resource = store,
           .given_objects = {disruption_budget().owner_references({}).get()},
           .expect_resource = store.conditions(conditions({
               .budget = condition("DisruptionBudgetReady", "False", "NotOwned", not_owned),
               .ready = condition("Ready", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("policy", "PodDisruptionBudget",
                                                               kvdb_test::test_namespace, "test-kvdb")
                                 .by(kvdb_test::test_namespace, kvdb_test::store_name)},
           .expect_events = {new_event(
               store.get(), rr::event_warning, "CreationFailed",
               R"(Failed to create PodDisruptionBudget "test-kvdb": poddisruptionbudgets.policy "test-kvdb" already exists)")},
           .expect_creates = {disruption_budget().get()},
       }},
  };
}
