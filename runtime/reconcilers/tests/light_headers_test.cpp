// The runtime headers a hooks file and the generated wiring include (issue 17, docs/types.md#compile-time
// item 4) do not define rr::Json: this unit includes them and generated kinds, nothing that includes
// <nlohmann/json.hpp>, and instantiates the typed client calls, the typed finalizer helpers, the
// status comparison, the object manager, a child reconciler and a resource reconciler over the kinds.
// It fails to compile when one of these headers pulls nlohmann's json.hpp in again, or when a typed
// path needs rr::Json defined. (The calls themselves run in the client and reconcilers tests, which
// go through the same out-of-line paths.)
#include <doctest/doctest.h>

#include "rr/client/api.hpp"
#include "rr/client/duck.hpp"
#include "rr/client/dynamic_api.hpp"
#include "rr/reconcilers/child.hpp"
#include "rr/reconcilers/config_track.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/object_manager.hpp"
#include "rr/reconcilers/resource.hpp"
#include "rr/reconcilers/sequence.hpp"
#include "rr/reconcilers/sync.hpp"
#include "rr/reconcilers/with_finalizer.hpp"
#include "rrtest/v1/test_child.hpp"
#include "rrtest/v1/test_resource.hpp"

namespace {

template <class T>
concept defined = requires {
  sizeof(T);
};

static_assert(!defined<rr::Json>, "a hooks file's runtime headers must not include <nlohmann/json.hpp>");

using rrtest::v1::TestChild;
using rrtest::v1::TestResource;

}  // namespace

TEST_CASE("light headers: the typed client calls instantiate without rr::Json defined") {
  // Taking each member's address instantiates its definition in this unit.
  auto get = &rr::Api<TestResource>::get;
  auto list = &rr::Api<TestResource>::list;
  auto create = &rr::Api<TestResource>::create;
  auto update_status = &rr::Api<TestResource>::update_status;
  auto patch = &rr::Api<TestResource>::patch;
  auto remove = &rr::Api<TestResource>::remove;
  auto add_finalizer = &rr::add_finalizer<TestResource>;
  auto same_status = &rr::same_status<TestResource>;
  CHECK(static_cast<bool>(get));
  CHECK(static_cast<bool>(list));
  CHECK(static_cast<bool>(create));
  CHECK(static_cast<bool>(update_status));
  CHECK(static_cast<bool>(patch));
  CHECK(static_cast<bool>(remove));
  CHECK(static_cast<bool>(add_finalizer));
  CHECK(static_cast<bool>(same_status));
}

TEST_CASE("light headers: the wiring's reconcilers instantiate without rr::Json defined") {
  auto manage = &rr::UpdatingObjectManager<TestChild>::manage;
  auto child = &rr::ChildReconciler<TestResource, TestChild>::reconcile;
  auto resource = &rr::ResourceReconciler<TestResource>::reconcile;
  auto duck = &rr::ResourceReconciler<rr::ConditionsDuck>::reconcile;  // a duck's status goes out as a patch
  CHECK(static_cast<bool>(manage));
  CHECK(static_cast<bool>(child));
  CHECK(static_cast<bool>(resource));
  CHECK(static_cast<bool>(duck));
}
