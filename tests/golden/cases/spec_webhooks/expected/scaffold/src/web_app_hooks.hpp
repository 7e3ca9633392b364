// The hooks of the WebApp reconciler: what each step of reconciler.yaml does.
// This file is yours: `rrgen generate --scaffold` wrote it once and never
// overwrites it.
//
// The generated wiring (web_app_reconciler.cpp) calls these through one shared
// `const WebAppHooks&`, from several requests at once: they are const (static
// works too). Members you add (a client of another system, settings) are set
// where the reconciler is made:
//   WebAppReconciler(config, std::make_shared<const WebAppHooks>(...))
// A hook the spec requires that is missing here, or declared with another
// signature, fails the build with a message naming it.
#pragma once
#include <string>
#include <vector>

#include "web_app_reconciler.hpp"
#include "rr/reconcilers/context.hpp"
#include "rr/reconcilers/error.hpp"

namespace webapp {

struct WebAppHooks {
  // ---- Status: sync (reconciler.yaml:11:5) ------------------------------------------------------

  // Step Status's work on the WebApp: read what it needs, compute, call outside the cluster, and
  // write the outcome to its status. An error stops the steps after it and is retried with backoff.
  rr::Error status_sync(rr::Context& ctx, WebApp& web_app) const;

  // ---- webhook defaulting (reconciler.yaml:13:15) -----------------------------------------------

  // Sets the defaults of a WebApp being created or updated (the mutating webhook): what you change
  // becomes the JSON patch the API server applies. An error refuses the request.
  rr::Error webhook_default(rr::Context& ctx, WebApp& web_app) const;

  // ---- webhook validation (reconciler.yaml:15:5) ------------------------------------------------

  // Whether a new WebApp may be created: an error denies it with its message (an rr::ApiError's
  // Status is sent as it is); warnings go back to the client either way.
  rr::Error webhook_validate_create(rr::Context& ctx, const WebApp& web_app,
                                    std::vector<std::string>& warnings) const;

  // Whether a WebApp may change from old_web_app to web_app: an error denies the update with its
  // message; warnings go back to the client either way.
  rr::Error webhook_validate_update(rr::Context& ctx, const WebApp& old_web_app,
                                    const WebApp& web_app,
                                    std::vector<std::string>& warnings) const;

  // Whether a WebApp may be deleted: an error denies the deletion with its message; warnings go
  // back to the client either way.
  rr::Error webhook_validate_delete(rr::Context& ctx, const WebApp& web_app,
                                    std::vector<std::string>& warnings) const;

  // ---- webhook conversion (reconciler.yaml:16:15) -----------------------------------------------

  // Converts a v1alpha1 WebApp up to the hub version v1. Metadata is copied for you; fields
  // v1alpha1 cannot hold come back from the rrgen.dev/conversion-data annotation on their own.
  rr::Error convert_v1alpha1_to_hub(const WebAppV1alpha1& from, WebApp& hub) const;

  // Converts the hub version v1 down to v1alpha1. Metadata is copied for you; what v1alpha1 cannot
  // hold is kept in the rrgen.dev/conversion-data annotation.
  rr::Error convert_v1alpha1_from_hub(const WebApp& hub, WebAppV1alpha1& to) const;
};

}  // namespace webapp
