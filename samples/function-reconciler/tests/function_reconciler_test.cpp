// FunctionReconciler end to end (reconciler.io's ReconcilerTestSuite): the target image is
// resolved and the child Image created, updated, deleted and reflected on the Function.
#include <doctest/doctest.h>

#include <string>

#include "fixtures.hpp"
#include "function_reconciler.hpp"
#include "rr/testing/registration.hpp"

namespace {

using fnsample::Function;
using fnsample::Image;
using fntest::condition;
using fntest::with;
using rr::testing::induce_failure;
using rr::testing::new_event;

constexpr const char* test_namespace = "my-namespace";
constexpr const char* image_name = "my-function-image";
constexpr const char* git_url = "https://github.com/example/hello";

Function function_given() {
  Function f;
  f.metadata.namespace_ = test_namespace;
  f.metadata.name = "my-function";
  f.metadata.uid = "function-uid";
  f.metadata.generation = 1;
  f.metadata.labels = {{"app", "hello"}};
  auto& spec = f.spec.emplace();
  spec.image = "registry.example/hello:v1";
  auto& git = spec.git.emplace();
  git.url = git_url;
  git.revision = "main";
  return f;
}

// The Image the Function wants, as the reconciler sends it.
Image image_desired(const std::string& tag) {
  Image image;
  image.metadata.namespace_ = test_namespace;
  image.metadata.name = image_name;
  image.metadata.labels = {{"app", "hello"}, {std::string(fnsample::function_label_key), "my-function"}};
  rr::OwnerReference owner;
  owner.api_version = "build.example.rrgen.dev/v1";
  owner.kind = "Function";
  owner.name = "my-function";
  owner.uid = "function-uid";
  owner.controller = true;
  owner.block_owner_deletion = true;
  image.metadata.owner_references = {owner};
  auto& spec = image.spec.emplace();
  spec.tag = tag;
  auto& git = spec.source.emplace().git.emplace();
  git.url = git_url;
  git.revision = "main";
  return image;
}

// The Image as the cluster has it after an earlier reconcile.
Image image_given(const std::string& tag) {
  return with(image_desired(tag), [](Image& i) { i.metadata.uid = "image-uid"; });
}

// Reported by the Image's own controller.
Image built(Image image, std::string status, std::string reason, std::string message = {}) {
  auto& s = image.status.emplace();
  s.latest_image = "registry.example/hello@sha256:1111";
  s.conditions.emplace().push_back(condition("Ready", std::move(status), std::move(reason), std::move(message)));
  return image;
}

// The Function's status after the reconcile that created its Image (conditions sorted by type).
fnsample::v1::FunctionStatus status_image_created(const std::string& target) {
  fnsample::v1::FunctionStatus s;
  s.observed_generation = 1;
  s.target_image = target;
  s.image_ref = image_name;
  s.conditions = {
      condition("ImageReady", "Unknown", "Initializing"),
      condition("ImageResolved", "True", "Resolved"),
      condition("Ready", "Unknown", "Initializing"),
  };
  return s;
}

Function with_status(Function f, fnsample::v1::FunctionStatus status) {
  f.status = std::move(status);
  return f;
}

}  // namespace

RR_RECONCILER_TESTS("FunctionReconciler", [](const rr::testing::ReconcilerTestCase&, const rr::Config& config) {
  return fnsample::FunctionReconciler(config);
}) {
  const rr::Request request{test_namespace, "my-function"};
  const Function function = function_given();
  const Function function_v2 = with(function_given(), [](Function& f) {
    f.metadata.generation = 2;
    f.spec->image = "registry.example/hello:v2";
  });
  const Function function_without_git = with(function_given(), [](Function& f) {
    f.metadata.generation = 2;
    f.spec->git.reset();
  });
  const Function function_created = with_status(function, status_image_created("registry.example/hello:v1"));
  const Image squatter = with(image_desired("someone-elses:tag"), [](Image& i) {
    i.metadata.uid = "squatter-uid";
    i.metadata.owner_references.clear();
    i.metadata.labels.clear();
  });

  return rr::testing::ReconcilerTests{
      {"function not found: nothing to do", {.request = request}},
      {"creates the Image tagged with the target image",
       {
           .request = request,
           .given_objects = {function},
           .expect_events =
               {
                   new_event(function, rr::event_normal, "Created", R"(Created Image "my-function-image")"),
                   new_event(function, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_creates = {image_desired("registry.example/hello:v1")},
           .expect_status_updates = {function_created},
       }},
      {"updates the Image when the target image changes",
       {
           .request = request,
           .given_objects = {with_status(function_v2, status_image_created("registry.example/hello:v1")),
                             image_given("registry.example/hello:v1")},
           .expect_events =
               {
                   new_event(function_v2, rr::event_normal, "Updated", R"(Updated Image "my-function-image")"),
                   new_event(function_v2, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_updates = {image_given("registry.example/hello:v2")},
           .expect_status_updates = {with_status(function_v2,
                                                 with(status_image_created("registry.example/hello:v2"),
                                                      [](auto& s) { s.observed_generation = 2; }))},
       }},
      {"an Image in sync is left alone and nothing is written",
       {
           .request = request,
           .given_objects = {function_created, image_given("registry.example/hello:v1")},
       }},
      {"deletes the Image when spec.git is removed",
       {
           .request = request,
           .given_objects = {with_status(function_without_git, status_image_created("registry.example/hello:v1")),
                             image_given("registry.example/hello:v1")},
           .expect_events =
               {
                   new_event(function_without_git, rr::event_normal, "Deleted", R"(Deleted Image "my-function-image")"),
                   new_event(function_without_git, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_deletes = {rr::testing::delete_ref_of(image_given("registry.example/hello:v1"))},
           .expect_status_updates = {with_status(function_without_git,
                                                 with(status_image_created("registry.example/hello:v1"),
                                                      [](auto& s) {
                                                        s.observed_generation = 2;
                                                        s.image_ref.reset();
                                                        s.latest_image = "registry.example/hello:v1";
                                                        s.conditions = {
                                                            condition("ImageReady", "True", "BuildNotUsed"),
                                                            condition("ImageResolved", "True", "Resolved"),
                                                            condition("Ready", "True", "Ready"),
                                                        };
                                                      }))},
       }},
      {"reflects a built Image: latestImage and Ready",
       {
           .request = request,
           .given_objects = {function_created, built(image_given("registry.example/hello:v1"), "True", "BuildSucceeded")},
           .expect_events = {new_event(function, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with_status(function, with(status_image_created("registry.example/hello:v1"),
                                                                [](auto& s) {
                                                                  s.latest_image = "registry.example/hello@sha256:1111";
                                                                  s.conditions = {
                                                                      condition("ImageReady", "True", "BuildSucceeded"),
                                                                      condition("ImageResolved", "True", "Resolved"),
                                                                      condition("Ready", "True", "Ready"),
                                                                  };
                                                                }))},
       }},
      {"reflects a failed build: ImageReady and Ready are False",
       {
           .request = request,
           .given_objects = {function_created,
                             built(image_given("registry.example/hello:v1"), "False", "BuildFailed", "step build: exit 1")},
           .expect_events = {new_event(function, rr::event_normal, "StatusUpdated", "Updated status")},
           .expect_status_updates = {with_status(function, with(status_image_created("registry.example/hello:v1"),
                                                                [](auto& s) {
                                                                  s.latest_image = "registry.example/hello@sha256:1111";
                                                                  s.conditions = {
                                                                      condition("ImageReady", "False", "BuildFailed",
                                                                                "step build: exit 1"),
                                                                      condition("ImageResolved", "True", "Resolved"),
                                                                      condition("Ready", "False", "BuildFailed",
                                                                                "step build: exit 1"),
                                                                  };
                                                                }))},
       }},
      {"an Image of that name the Function does not own: reflected, tracked, not adopted",
       {
           .request = request,
           .given_objects = {function, squatter},
           .api_given_objects = {squatter},
           .expect_tracks = {rr::testing::new_track_request(squatter, function)},
           .expect_events =
               {
                   new_event(function, rr::event_warning, "CreationFailed",
                             R"(Failed to create Image "my-function-image": images.kpack.example.rrgen.dev "my-function-image" already exists)"),
                   new_event(function, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_creates = {image_desired("registry.example/hello:v1")},
           .expect_status_updates = {with_status(function, with(status_image_created("registry.example/hello:v1"),
                                                                [](auto& s) {
                                                                  s.image_ref.reset();
                                                                  const std::string message =
                                                                      R"(There is an existing Image "my-function-image" that the Function does not own.)";
                                                                  s.conditions = {
                                                                      condition("ImageReady", "False", "NotOwned", message),
                                                                      condition("ImageResolved", "True", "Resolved"),
                                                                      condition("Ready", "False", "NotOwned", message),
                                                                  };
                                                                }))},
       }},
      // Not an API reason the child reconciler reflects: returned. The Function already has the
      // status this reconcile computes, so no status write swallows the error (decision Q4).
      {"creating the Image fails: the error is returned",
       {
           .request = request,
           .given_objects = {function_created},
           .with_reactors = {induce_failure("create", "Image")},
           .expect_events = {new_event(function, rr::event_warning, "CreationFailed",
                                       R"(Failed to create Image "my-function-image": inducing failure for create Image)")},
           .expect_creates = {image_desired("registry.example/hello:v1")},
           .should_err = true,
       }},
      // Forbidden is one of the reflected reasons: the Function says why, the request succeeds.
      {"creating the Image is forbidden: reflected on the status",
       {
           .request = request,
           .given_objects = {function},
           .with_reactors = {induce_failure("create", "Image",
                                            {.error = rr::Error::api(rr::api_errors::forbidden(
                                                 "images", "kpack.example.rrgen.dev", image_name, "quota exceeded"))})},
           .expect_events =
               {
                   new_event(function, rr::event_warning, "CreationFailed",
                             R"(Failed to create Image "my-function-image": images.kpack.example.rrgen.dev "my-function-image" is forbidden: quota exceeded)"),
                   new_event(function, rr::event_normal, "StatusUpdated", "Updated status"),
               },
           .expect_creates = {image_desired("registry.example/hello:v1")},
           .expect_status_updates = {with_status(function, with(status_image_created("registry.example/hello:v1"),
                                                                [](auto& s) {
                                                                  s.image_ref.reset();
                                                                  const std::string message =
                                                                      R"(images.kpack.example.rrgen.dev "my-function-image" is forbidden: quota exceeded)";
                                                                  s.conditions = {
                                                                      condition("ImageReady", "False", "Forbidden", message),
                                                                      condition("ImageResolved", "True", "Resolved"),
                                                                      condition("Ready", "False", "Forbidden", message),
                                                                  };
                                                                }))},
       }},
  };
}
