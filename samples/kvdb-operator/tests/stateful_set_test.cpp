// Step StatefulSet (child StatefulSet) on its own: the database's pods and volumes, and the
// StatefulSet controller's progress reflected on the store. Scaling is True while readyReplicas
// differs from spec.replicas; Updating is True while the pods do not all run the template's
// image (currentRevision != updateRevision, or fewer updated pods than pods, or a new template
// the controller has not observed yet). docs/testing-reconcilers.md describes every field of a case.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "rr/testing/registration.hpp"

namespace {

using kvdb::KeyValueStore;
using kvdb_test::condition;
using kvdb_test::conditions;
using kvdb_test::image_1_0;
using kvdb_test::image_1_1;
using kvdb_test::observed;
using kvdb_test::rolling;
using kvdb_test::scaling;
using kvdb_test::stateful_set;
using kvdb_test::up_to_date;
using kvdb_test::Workload;
using rr::testing::new_event;
using Case = rr::testing::SubReconcilerTestCase<KeyValueStore>;

// The conditions the step sets (the other steps' stay initialised): StatefulSetReady follows
// Updating first, then Scaling; Ready follows StatefulSetReady.
std::vector<rr::Condition> reflected(const rr::Condition& scaling_c, const rr::Condition& updating_c) {
  rr::Condition set = condition("StatefulSetReady", "True", "AllReplicasReady");
  rr::Condition ready = condition("Ready", "Unknown", "Initializing");  // the other steps have not run
  if (updating_c.status == "True") {
    set = condition("StatefulSetReady", "Unknown", updating_c.reason, updating_c.message);
  } else if (scaling_c.status == "True") {
    set = condition("StatefulSetReady", "Unknown", scaling_c.reason, scaling_c.message);
  }
  if (set.status == "Unknown") ready = condition("Ready", "Unknown", set.reason, set.message);
  return conditions({.ready = ready, .scaling = scaling_c, .stateful_set = set, .updating = updating_c});
}

}  // namespace

RR_SUB_RECONCILER_TESTS("KeyValueStoreStatefulSetReconciler", KeyValueStore, [](const Case&, const rr::Config&) {
  return kvdb::KeyValueStoreStatefulSetReconciler(kvdb_test::hooks());
}) {
  // As the root reconciler hands it to its steps: conditions initialised.
  const auto store = kvdb_test::store().conditions(conditions({}));
  const auto created_event = new_event(store.get(), rr::event_normal, "Created", R"(Created StatefulSet "test-kvdb")");
  const auto updated_event = new_event(store.get(), rr::event_normal, "Updated", R"(Updated StatefulSet "test-kvdb")");
  // A StatefulSet of generation 1 whose controller has seen it and whose 3 pods are ready.
  const auto running = observed(stateful_set().uid("sts-uid").generation(1));
  // The store as it was when its 3 pods of 1.0 were all ready.
  const auto was_ready = store.status_ready_replicas(3).status_current_image(image_1_0);
  const auto version_1_1 = was_ready.spec_image(image_1_1);
  const auto running_1_1 = stateful_set({.image = image_1_1}).uid("sts-uid").generation(2);
  const std::string not_owned = R"(There is an existing StatefulSet "test-kvdb" that the KeyValueStore does not own.)";

  return rr::testing::SubReconcilerTests<KeyValueStore>{
      {"creates the StatefulSet: 3 pods of kvdb:1.0 on 6379, the password from the Secret, a 1Gi claim each",
       {
           .resource = store,
           .expect_resource = store.status_ready_replicas(0).status_current_image(image_1_0).conditions(
               reflected(scaling(0, 3), up_to_date())),
           .expect_events = {created_event},
           .expect_creates = {stateful_set().get()},
       }},
      {"creates the StatefulSet from every spec field: 5 pods of kvdb:1.1 on 7000, 10Gi each",
       {
           .resource = store.spec_replicas(5).spec_image(image_1_1).spec_port(7000).spec_storage(rr::Quantity("10Gi")),
           .expect_resource = store.spec_replicas(5)
                                  .spec_image(image_1_1)
                                  .spec_port(7000)
                                  .spec_storage(rr::Quantity("10Gi"))
                                  .status_ready_replicas(0)
                                  .status_current_image(image_1_1)
                                  .conditions(reflected(scaling(0, 5), up_to_date(image_1_1))),
           .expect_events = {created_event},
           .expect_creates = {stateful_set({.replicas = 5, .image = image_1_1, .port = 7000, .storage = "10Gi"}).get()},
       }},
      {"all pods ready: Scaling and Updating False, StatefulSetReady True, nothing written",
       {
           .resource = store,
           .given_objects = {running.get()},
           .expect_resource = was_ready.conditions(reflected(scaling(3, 3), up_to_date())),
       }},
      {"pods still starting: Scaling True 2/3 replicas ready",
       {
           .resource = store,
           .given_objects = {observed(running, {.replicas = 3, .ready = 2}).get()},
           .expect_resource = store.status_ready_replicas(2).status_current_image(image_1_0).conditions(
               reflected(scaling(2, 3), up_to_date())),
       }},
      // The update hands back the StatefulSet at generation 2 with the status of generation 1.
      {"scaled from 3 to 5: the StatefulSet is updated, Scaling True 3/5",
       {
           .resource = was_ready.spec_replicas(5),
           .given_objects = {running.get()},
           .expect_resource = was_ready.spec_replicas(5).conditions(reflected(scaling(3, 5), up_to_date())),
           .expect_events = {updated_event},
           .expect_updates = {running.spec_replicas(5).get()},
       }},
      {"scaling up: 4 of 5 pods ready, nothing written",
       {
           .resource = was_ready.spec_replicas(5),
           .given_objects = {observed(running.spec_replicas(5), {.replicas = 5, .ready = 4, .updated = 5}).get()},
           .expect_resource = was_ready.spec_replicas(5).status_ready_replicas(4).conditions(
               reflected(scaling(4, 5), up_to_date())),
       }},
      {"scaled down from 5 to 3: ScalingDown until the surplus pods are gone",
       {
           .resource = was_ready,
           .given_objects = {observed(running, {.replicas = 5, .ready = 5, .updated = 5}).get()},
           .expect_resource = was_ready.status_ready_replicas(5).conditions(reflected(scaling(5, 3), up_to_date())),
       }},
      // Not observed yet: the template's image is not the one the pods run, so it is rolling.
      {"a new image: the StatefulSet is updated, Updating True, currentImage still the old one",
       {
           .resource = version_1_1,
           .given_objects = {running.get()},
           .expect_resource = version_1_1.conditions(reflected(scaling(3, 3), rolling(0, 3))),
           .expect_events = {updated_event},
           .expect_updates = {running
                                  .spec([](k8s::apps::v1::StatefulSetSpec& spec) {
                                    spec.template_.spec->containers.front().image = image_1_1;
                                  })
                                  .get()},
       }},
      {"rolling: 1 of 3 pods at the new revision, Updating True 1/3",
       {
           .resource = version_1_1,
           .given_objects = {observed(running_1_1, {.updated = 1, .update_revision = "test-kvdb-2"}).get()},
           .expect_resource = version_1_1.conditions(reflected(scaling(3, 3), rolling(1, 3))),
       }},
      // The controller has moved every pod, but not yet currentRevision: still rolling.
      {"rolling: every pod updated, currentRevision not moved yet: Updating True 3/3",
       {
           .resource = version_1_1,
           .given_objects = {observed(running_1_1, {.update_revision = "test-kvdb-2"}).get()},
           .expect_resource = version_1_1.conditions(reflected(scaling(3, 3), rolling(3, 3))),
       }},
      {"a pod restarting during the rollout: Scaling and Updating both True, Updating reported first",
       {
           .resource = version_1_1,
           .given_objects = {observed(running_1_1, {.ready = 2, .updated = 1, .update_revision = "test-kvdb-2"}).get()},
           .expect_resource = version_1_1.status_ready_replicas(2).conditions(reflected(scaling(2, 3), rolling(1, 3))),
       }},
      {"rolled out: Updating False, currentImage the new one",
       {
           .resource = version_1_1,
           .given_objects =
               {observed(running_1_1, {.current_revision = "test-kvdb-2", .update_revision = "test-kvdb-2"}).get()},
           .expect_resource = version_1_1.status_current_image(image_1_1).conditions(
               reflected(scaling(3, 3), up_to_date(image_1_1))),
       }},
      // Kubernetes refuses a change to volumeClaimTemplates: the merge leaves them alone.
      {"the storage changed after creation: nothing written",
       {
           .resource = was_ready.spec_storage(rr::Quantity("10Gi")),
           .given_objects = {running.get()},
           .expect_resource =
               was_ready.spec_storage(rr::Quantity("10Gi")).conditions(reflected(scaling(3, 3), up_to_date())),
       }},
      {"a StatefulSet of that name that the store does not own: StatefulSetReady False NotOwned, no Scaling",
       {
           .resource = was_ready.conditions(reflected(scaling(3, 3), up_to_date())),
           .given_objects = {stateful_set().owner_references({}).get()},
           .expect_resource = store.status_current_image(image_1_0).conditions(conditions({
               .ready = condition("Ready", "False", "NotOwned", not_owned),
               .stateful_set = condition("StatefulSetReady", "False", "NotOwned", not_owned),
           })),
           .expect_tracks = {rr::testing::create_track_request("apps", "StatefulSet", kvdb_test::test_namespace,
                                                               "test-kvdb")
                                 .by(kvdb_test::test_namespace, kvdb_test::store_name)},
           .expect_events = {new_event(
               store.get(), rr::event_warning, "CreationFailed",
               R"(Failed to create StatefulSet "test-kvdb": statefulsets.apps "test-kvdb" already exists)")},
           .expect_creates = {stateful_set().get()},
       }},
  };
}
