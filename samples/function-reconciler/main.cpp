// function_demo: the Function reconciler against an in-process cluster. A Function is created and
// reconciled (its Image child appears), the Image's own controller is played by hand (it reports
// a build), then spec.image changes and the next reconcile updates the Image. Each step prints
// the events the reconciler recorded and the objects as the cluster has them.
#include <iostream>
#include <memory>
#include <string>

#include "function_reconciler.hpp"
#include "rr/cluster/cluster.hpp"
#include "rr/reconcilers/config.hpp"
#include "rr/reconcilers/events.hpp"
#include "rr/reconcilers/object.hpp"

using fnsample::Function;
using fnsample::Image;

namespace {

// Prints each event as it is recorded, and counts them.
class PrintingRecorder final : public rr::EventRecorder {
 public:
  void record(const rr::Event& event) override {
    ++recorded;
    std::cout << "  event " << event.type << " " << event.reason << ": " << event.message << "\n";
  }
  int recorded = 0;
};

std::string or_none(const std::optional<std::string>& value) { return value ? *value : "(none)"; }

std::string conditions_text(const std::optional<std::vector<rr::Condition>>& conditions) {
  std::string out;
  for (const auto& c : conditions.value_or(std::vector<rr::Condition>{})) {
    out += " " + c.type + "=" + c.status;
    if (!c.reason.empty()) out += "(" + c.reason + ")";
  }
  return out;
}

void print_image(rr::Client& client) {
  const auto image = client.try_get<Image>({"demo", "hello-image"});
  if (!image) {
    std::cout << "  Image demo/hello-image: none\n";
    return;
  }
  const auto* owner = rr::controller_of(image->metadata);
  const auto& git = image->spec->source->git;
  std::cout << "  Image demo/hello-image: tag=" << image->spec->tag << " git=" << (git ? git->url : "(none)") << "@"
            << or_none(git ? git->revision : std::nullopt) << " controller="
            << (owner ? owner->kind + "/" + owner->name : "(none)") << "\n";
}

void print_function(rr::Client& client) {
  const auto function = client.get<Function>("demo", "hello");
  const auto status = function.status.value_or(fnsample::v1::FunctionStatus{});
  std::cout << "  Function status: targetImage=" << or_none(status.target_image) << " imageRef=" << or_none(status.image_ref)
            << " latestImage=" << or_none(status.latest_image) << " observedGeneration="
            << status.observed_generation.value_or(0) << "\n"
            << "  Function conditions:" << conditions_text(status.conditions) << "\n";
}

bool reconcile(const rr::Reconciler& reconciler, const PrintingRecorder& recorder) {
  const int before = recorder.recorded;
  const rr::Outcome out = reconciler.reconcile({"demo", "hello"});
  if (out.error) {
    std::cout << "  reconcile failed: " << out.error.message() << "\n";
    return false;
  }
  if (recorder.recorded == before) std::cout << "  (no events)\n";
  return true;
}

}  // namespace

int main() {
  auto cluster = std::make_shared<rr::Cluster>();
  cluster->register_kind<Function>();
  cluster->register_kind<Image>();
  auto client = std::make_shared<rr::ClusterClient>(cluster);
  rr::Config config = rr::make_config(client);
  auto recorder = std::make_shared<PrintingRecorder>();
  config.recorder = recorder;
  const rr::Reconciler reconciler = fnsample::FunctionReconciler(config);

  std::cout << "== 1. a new Function: spec.image registry.example/hello:v1, built from git\n";
  Function function;
  function.metadata.namespace_ = "demo";
  function.metadata.name = "hello";
  auto& spec = function.spec.emplace();
  spec.image = "registry.example/hello:v1";
  spec.git.emplace().url = "https://github.com/example/hello";
  client->create(function);
  if (!reconcile(reconciler, *recorder)) return 1;
  print_image(*client);
  print_function(*client);

  std::cout << "== 2. the Image's controller reports a build; the Function reflects it\n";
  Image image = client->get<Image>("demo", "hello-image");
  auto& image_status = image.status.emplace();
  image_status.latest_image = "registry.example/hello@sha256:1111";
  rr::Condition ready;
  ready.type = "Ready";
  ready.status = "True";
  ready.reason = "BuildSucceeded";
  ready.last_transition_time = rr::Time::from(cluster->now());
  image_status.conditions.emplace().push_back(ready);
  client->update_status(image);
  if (!reconcile(reconciler, *recorder)) return 1;
  print_function(*client);

  std::cout << "== 3. spec.image becomes registry.example/hello:v2\n";
  function = client->get<Function>("demo", "hello");
  function.spec->image = "registry.example/hello:v2";
  client->update(function);
  if (!reconcile(reconciler, *recorder)) return 1;
  print_image(*client);
  print_function(*client);
  std::cout << "  (latestImage and ImageReady change once the Image's controller has built the new tag)\n";

  std::cout << "== 4. a reconcile with nothing to do writes nothing\n";
  if (!reconcile(reconciler, *recorder)) return 1;
  return 0;
}
