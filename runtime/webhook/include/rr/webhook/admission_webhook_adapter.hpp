// AdmissionWebhookAdapter<T>: reconciler.io's adapter running a sub-reconciler tree as an
// admission webhook (mutating or validating):
//
//   1. The response starts allowed, with the request's uid.
//   2. A Context: the adapter's config (also the original config; for a dryRun request,
//      dry_run_config(config): writes sent as dry runs, no events), request namespace/name, the
//      resource type (T's, or the request's kind for unstructured objects), a logger named after
//      the adapter with the request's UID, kind and operation; admission_request(ctx) and
//      admission_response(ctx) reach the request and the response being built.
//   3. before_handle(ctx, request, response) (an exception it throws denies, as step 5's errors).
//   4. The resource is decoded from request.object, or request.old_object for a DELETE, and
//      defaulted (T::apply_defaults() when T has it).
//   5. The tree runs on it. An error (or an exception) denies the request: allowed=false and,
//      unless a reconciler set a status already, status {code 500, message: the error's}. Errors
//      are logged unless quiet.
//   6. When the tree changed the resource and set no patch itself, the response carries the JSON
//      patch from the request's object to the changed resource.
//   7. after_handle(ctx, request, response), which may still change the response.
//
// T is a generated kind (rr::Object) or rr::Json for objects of any kind (unstructured); any other
// type decodes with nlohmann's from_json/to_json. The tree's Result is not used.
#pragma once
#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <utility>

#include "rr/client/client.hpp"
#include "rr/client/patch.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/object.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"
#include "rr/webhook/admission_review.hpp"
#include "rr/webhook/dry_run.hpp"
#include "rr/webhook/server.hpp"

namespace rr::webhook {

// The request being handled and the response being built, from inside the tree. Throw
// rr::StashError outside an admission webhook.
const AdmissionRequest& admission_request(const Context& ctx);
AdmissionResponse& admission_response(Context& ctx);
bool handling_admission(const Context& ctx);  // whether the two above would answer

namespace adapter_detail {

// Puts the request and the response in ctx's stash (they outlive ctx).
void stash(Context& ctx, const AdmissionRequest& request, AdmissionResponse& response);
// The logger of one request: "<name>" with UID, kind, resource and operation.
Logger request_logger(const Logger& base, std::string_view name, const AdmissionRequest& request);
// The resource type of an unstructured request: its kind and resource.
KindInfo kind_of(const AdmissionRequest& request);
// Step 5's denial: allowed=false, and status {500, message} unless one is set.
void deny(AdmissionResponse& response, const Error& err);

template <class T>
T decode(const Json& raw) {
  if constexpr (std::same_as<T, Json>) {
    return raw;
  } else if constexpr (Object<T>) {
    return from_object_json<T>(raw);
  } else {
    return raw.get<T>();
  }
}

template <class T>
Json encode(const T& resource) {
  if constexpr (std::same_as<T, Json>) {
    return resource;
  } else if constexpr (Object<T>) {
    return to_object_json(resource);
  } else {
    return Json(resource);
  }
}

}  // namespace adapter_detail

// What a test (or a benchmark) pins for one request.
struct HandleOptions {
  std::optional<std::chrono::system_clock::time_point> now{};
  Logger log{};
};

template <class T>
struct AdmissionWebhookAdapter {
  std::string name{};  // default "<Kind>AdmissionWebhookAdapter" ("Unstructured..." for rr::Json)
  SubReconciler<T> reconciler{};
  // Called first for each request; may change the response or stash values.
  std::function<void(Context&, const AdmissionRequest&, AdmissionResponse&)> before_handle{};
  // Called last; may change the response.
  std::function<void(Context&, const AdmissionRequest&, AdmissionResponse&)> after_handle{};
  Config config{};
  Logger log{};  // the base logger; HandleOptions::log replaces it for one request

  std::string display_name() const {
    if (!name.empty()) return name;
    if constexpr (Object<T>) {
      return std::string(ResourceTraits<T>::kind) + "AdmissionWebhookAdapter";
    } else {
      return "UnstructuredAdmissionWebhookAdapter";
    }
  }

  AdmissionResponse handle(const AdmissionRequest& request) const {
    return handle(request, HandleOptions{.now = {}, .log = log});
  }

  AdmissionResponse handle(const AdmissionRequest& request, const HandleOptions& options) const {
    AdmissionResponse response;
    response.uid = request.uid;
    response.allowed = true;  // a reconciler denies by clearing it, or by returning an error
    KindInfo type;
    if constexpr (Object<T>) {
      type = kind_info_of<T>();
    } else {
      type = adapter_detail::kind_of(request);
    }
    Context ctx(ContextOptions{.config = request.dry_run ? dry_run_config(config) : config,
                               .request = Request{request.namespace_, request.name},
                               .resource_type = std::move(type),
                               .log = adapter_detail::request_logger(options.log, display_name(), request),
                               .now = options.now,
                               .cancelled = nullptr,
                               .additional_configs = {}});
    adapter_detail::stash(ctx, request, response);
    Error err;
    if (before_handle) {
      err = call_hook([&] {
        before_handle(ctx, request, response);
        return Error{};
      });
    }
    // As reconciler.io, the tree runs even when before_handle denied; a before_handle that threw
    // (ours: Go's cannot fail) is the request's error instead.
    if (!err) err = reconcile(ctx, request, response);
    if (err) fail(ctx, response, err);
    if (after_handle) {
      if (Error thrown = call_hook([&] {
            after_handle(ctx, request, response);
            return Error{};
          })) {
        fail(ctx, response, thrown);
      }
    }
    return response;
  }

  // For rr::webhook::Server::handle_admission. The handler holds a copy of the adapter.
  AdmissionHandler handler() const {
    return [adapter = *this](const AdmissionRequest& request) { return adapter.handle(request); };
  }

 private:
  static void fail(Context& ctx, AdmissionResponse& response, const Error& err) {
    if (!err.is(err_quiet())) ctx.log().error(err, "reconcile error");
    adapter_detail::deny(response, err);
  }

  Error reconcile(Context& ctx, const AdmissionRequest& request, AdmissionResponse& response) const {
    const Json& raw = request.operation == Operation::Delete ? request.old_object : request.object;
    T resource{};
    if (Error err = call_hook([&] {
          resource = adapter_detail::decode<T>(raw);
          if constexpr (requires(T & t) { t.apply_defaults(); }) resource.apply_defaults();
          return Error{};
        })) {
      return err;
    }
    const Json defaulted = adapter_detail::encode(resource);
    if (Error err = call_hook([&] { return reconciler.reconcile(ctx, resource).error; })) return err;
    Json mutated;
    if (Error err = call_hook([&] {
          mutated = adapter_detail::encode(resource);
          return Error{};
        })) {
      return err;
    }
    // As reconciler.io: a patch only when the tree changed the resource (defaulting alone does not
    // count), from the object as the API server sent it, and not over one a reconciler set.
    if (response.patch.is_null() && mutated != defaulted) {
      Json patch = create_json_patch(raw, mutated);
      if (!patch.empty()) {
        ctx.log().with("patch", patch.dump()).info("mutating resource");
        response.patch = std::move(patch);
      }
    }
    return {};
  }
};

}  // namespace rr::webhook
