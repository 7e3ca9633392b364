#include "analyze/call_table.hpp"

namespace rrgen {

const std::vector<CallForm>& all_call_forms() {
  using K = KindFrom;
  // Client's verbs: a typed template (kind from T) and an unstructured overload whose first
  // argument is the KindInfo. Api<T>'s verbs take their kind from the class.
  static const std::vector<CallForm> forms = {
      {"rr::Client", "get", {"get"}, K::KindInfoArg, {}, 0, -1, -1, true},
      {"rr::Client", "try_get", {"get"}, K::FunctionTemplateArg, {}, -1, -1, -1, true},
      {"rr::Client", "list", {"list"}, K::KindInfoArg, {}, 0, -1, -1, true},
      {"rr::Client", "create", {"create"}, K::KindInfoArg, {}, 0},
      {"rr::Client", "update", {"update"}, K::KindInfoArg, {}, 0},
      {"rr::Client", "update_status", {"update"}, K::KindInfoArg, "status", 0},
      {"rr::Client", "patch", {"patch"}, K::KindInfoArg, {}, 0, 3, 4},
      {"rr::Client", "remove", {"delete"}, K::KindInfoArg, {}, 0},
      {"rr::Client", "remove_collection", {"deletecollection"}, K::KindInfoArg, {}, 0},
      {"rr::Client", "watch", {"watch"}, K::KindInfoArg, {}, 0},
      {"rr::Api", "get", {"get"}, K::ClassTemplateArg, {}, -1, -1, -1, true},
      {"rr::Api", "try_get", {"get"}, K::ClassTemplateArg, {}, -1, -1, -1, true},
      {"rr::Api", "list", {"list"}, K::ClassTemplateArg, {}, -1, -1, -1, true},
      {"rr::Api", "create", {"create"}, K::ClassTemplateArg},
      {"rr::Api", "update", {"update"}, K::ClassTemplateArg},
      {"rr::Api", "update_status", {"update"}, K::ClassTemplateArg, "status"},
      {"rr::Api", "patch", {"patch"}, K::ClassTemplateArg, {}, -1, 3},
      {"rr::Api", "remove", {"delete"}, K::ClassTemplateArg},
      {"rr::Api", "watch", {"watch"}, K::ClassTemplateArg},
      // The tracker's reads (config_track.hpp): tracked first, then read through
      // ctx.config().api(), the controller's cached client: served by the kind's informer.
      {"rr", "track_and_get", {"list", "watch"}, K::FunctionTemplateArg},
      {"rr", "track_and_try_get", {"list", "watch"}, K::FunctionTemplateArg},
      {"rr", "track_and_list", {"list", "watch"}, K::FunctionTemplateArg},
      // A track registration makes no call, but it only fires when the tracked kind is watched:
      // the informer that feeds the tracker lists and watches it.
      {"rr::Tracker", "track_object", {"list", "watch"}, K::ObjectArg, {}, 0},
      // Watch registrations of a hand-written reconciler's setup (sub_reconciler.hpp): each
      // starts an informer of the kind, which lists and watches it.
      {"rr::Setup", "for_kind", {"list", "watch"}, K::KindInfoArg, {}, 0},
      {"rr::Setup", "owns", {"list", "watch"}, K::KindInfoArg, {}, 0},
      {"rr::Setup", "watches_tracked", {"list", "watch"}, K::KindInfoArg, {}, 0},
      // An object manager called by hand (object_manager.hpp): creates, updates or deletes its
      // kind. What it does on the parent (the finalizer patch, the events) goes through the
      // type-erased ParentRef and is not attributed here.
      {"rr::UpdatingObjectManager", "manage", {"create", "update", "delete"}, K::ClassTemplateArg},
      {"rr::ObjectManager", "manage", {"create", "update", "delete"}, K::ClassTemplateArg},
      // Finalizers: a JSON merge patch of metadata.finalizers (finalizers.hpp).
      {"rr", "add_finalizer", {"patch"}, K::KindInfoArg, {}, 1},
      {"rr", "clear_finalizer", {"patch"}, K::KindInfoArg, {}, 1},
      // Events: events.k8s.io/v1 Events, created, and patched when a repeat becomes a series.
      {"rr::EventRecorder", "event", {"create", "patch"}, K::CoreEvents},
      {"rr::EventRecorder", "record", {"create", "patch"}, K::CoreEvents},
  };
  return forms;
}

std::vector<const CallForm*> call_forms(std::string_view scope, std::string_view name) {
  std::vector<const CallForm*> out;
  for (const CallForm& form : all_call_forms()) {
    if (form.scope == scope && form.name == name) out.push_back(&form);
  }
  return out;
}

}  // namespace rrgen
