// The hooks of the WebApp reconciler (web_app_hooks.hpp). This file is yours:
// `rrgen generate --scaffold` wrote it once and never overwrites it. Each hook
// starts as a harmless no-op marked TODO(you), and the scaffolded tests pass with
// them as they are. Fill them in one at a time, each with a case in its step's
// table (tests/<step>_test.cpp) that shows what it does.
#include "web_app_hooks.hpp"

#include "rr/client/client.hpp"
#include "rr/core/json.hpp"

namespace webapp {

rr::Error WebAppHooks::status_sync(rr::Context& /*ctx*/, WebApp& /*web_app*/) const {
  // TODO(you): bring the WebApp up to date for step Status: read what
  // it needs, do the work, record the outcome in its status (a condition says
  // how it went). An error stops the steps after this one and is retried
  // with backoff.
  return {};
}

rr::Error WebAppHooks::webhook_default(rr::Context& /*ctx*/, WebApp& /*web_app*/) const {
  // TODO(you): set what a WebApp leaves out to its default (the defaulting
  // webhook, on create and update). What you change here becomes the JSON patch
  // the API server applies before it validates and stores the object. An error
  // refuses the request with its message.
  return {};
}

rr::Error WebAppHooks::webhook_validate_create(rr::Context& /*ctx*/, const WebApp& /*web_app*/,
                                               std::vector<std::string>& /*warnings*/) const {
  // TODO(you): may this WebApp be created? Return an error to deny it,
  // e.g. rr::Error::make("spec.image must name a tag"): the client sees
  // `admission webhook "vwebapp-v1.web.example.rrgen.dev" denied the request: <message>`.
  // Push onto warnings what the client should hear either way.
  return {};
}

rr::Error WebAppHooks::webhook_validate_update(rr::Context& /*ctx*/, const WebApp& /*old_web_app*/,
                                               const WebApp& /*web_app*/,
                                               std::vector<std::string>& /*warnings*/) const {
  // TODO(you): may the WebApp change from old_web_app? Return an error to deny it,
  // e.g. rr::Error::make("spec.image must name a tag"): the client sees
  // `admission webhook "vwebapp-v1.web.example.rrgen.dev" denied the request: <message>`.
  // Push onto warnings what the client should hear either way.
  return {};
}

rr::Error WebAppHooks::webhook_validate_delete(rr::Context& /*ctx*/, const WebApp& /*web_app*/,
                                               std::vector<std::string>& /*warnings*/) const {
  // TODO(you): may this WebApp be deleted? Return an error to deny it,
  // e.g. rr::Error::make("spec.image must name a tag"): the client sees
  // `admission webhook "vwebapp-v1.web.example.rrgen.dev" denied the request: <message>`.
  // Push onto warnings what the client should hear either way.
  return {};
}

rr::Error WebAppHooks::convert_v1alpha1_to_hub(const WebAppV1alpha1& from, WebApp& hub) const {
  // TODO(you): move each field of the v1alpha1 WebApp to its place in the hub
  // version v1. As scaffolded, the fields both versions name alike are
  // copied (through JSON) and the rest is left out; what the hub cannot hold is
  // kept for the way back by rr::webhook::Conversion's annotation.
  rr::Json json = rr::to_object_json(from);
  json.erase("apiVersion");
  hub = rr::from_object_json<WebApp>(json);
  return {};
}

rr::Error WebAppHooks::convert_v1alpha1_from_hub(const WebApp& hub, WebAppV1alpha1& to) const {
  // TODO(you): move each field of the hub version v1 to its place in
  // v1alpha1. As scaffolded, the fields both versions name alike are copied
  // (through JSON); what v1alpha1 cannot hold is kept in an annotation by
  // rr::webhook::Conversion and restored when the object converts back up.
  rr::Json json = rr::to_object_json(hub);
  json.erase("apiVersion");
  to = rr::from_object_json<WebAppV1alpha1>(json);
  return {};
}

}  // namespace webapp
