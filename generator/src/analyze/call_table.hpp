// The rr runtime's API-calling functions and what each asks of the API server: the table
// call_finder.cpp matches callees against. Plain data (no Clang), so it is unit-tested alone and
// docs/analyze.md restates it.
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace rrgen {

// Where a call's kind comes from.
enum class KindFrom {
  FunctionTemplateArg,  // client.get<T>(...), rr::track_and_get<T>(...), add_finalizer(ctx, T&, ...)
  ClassTemplateArg,     // rr::Api<T>(...).get(...)
  KindInfoArg,          // client.get(kind_info, key): the KindInfo argument `kind_arg`
  ObjectArg,            // tracker.track_object(T const&, ...): the argument's type (Json: at run time)
  CoreEvents,           // the event recorder: events.k8s.io/v1 Events (the runtime's default)
};

struct CallForm {
  std::string_view scope;  // qualified class or namespace of the callee: "rr::Client", "rr::Api", "rr"
  std::string_view name;   // the function's name
  std::vector<std::string_view> verbs;
  KindFrom kind_from = KindFrom::FunctionTemplateArg;
  std::string_view subresource{};  // "status", "finalizers": a fixed subresource
  // For KindInfoArg/ObjectArg: the argument index; for a patch, the index of its subresource
  // argument in the typed (first) and unstructured (second) form (-1: none).
  int kind_arg = -1;
  int subresource_arg = -1;
  int untyped_subresource_arg = -1;
  // A read (get, list) a controller's cached client serves from the informer cache: through
  // Config::client/api() it needs list and watch, through Config::api_reader/reader() `verbs`.
  bool cached_read = false;
};

// The forms `scope::name` may take (a name may have a typed and an unstructured overload: the
// caller tells them apart by whether the callee is a template specialisation). Empty: not an API
// call.
std::vector<const CallForm*> call_forms(std::string_view scope, std::string_view name);

// Every form, for the docs test.
const std::vector<CallForm>& all_call_forms();

}  // namespace rrgen
