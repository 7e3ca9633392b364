#include "admission_paths.hpp"

#include <doctest/doctest.h>

#include <variant>

#include "rr/core/kind_codec.hpp"
#include "rr/kube_controllers/service_account_admission.hpp"

// rr::builtin's table of kinds, declared here rather than through the header of every type.
std::span<const rr::KindCodec> rr_builtin_types_kinds() noexcept;

namespace rr::manifest_check_test {

namespace {

Verdict verdict_of(const Status& s) {
  if (is_already_exists(s)) return Verdict{};
  return Verdict{s.code, s.message, s.causes};
}

std::string string_at(const Json& object, const char* pointer) {
  const Json::json_pointer p(pointer);
  return object.is_object() && object.contains(p) && object.at(p).is_string() ? object.at(p).get<std::string>() : "";
}

// A client with room for a slow CRD admission on a busy machine (TestServer's waits 10 s).
std::unique_ptr<httplib::Client> patient_client(const apiserver_test::TestServer& server) {
  auto c = server.client();
  c->set_read_timeout(120);
  c->set_write_timeout(120);
  return c;
}

// The registered kind of a document, or what a client gets for one it cannot route: 400 without a
// usable apiVersion and kind, kubectl's "no matches" for a kind the cluster does not serve.
std::variant<KindInfo, Verdict> route(const Cluster& cluster, const Json& object) {
  const std::string api_version = string_at(object, "/apiVersion"), kind_name = string_at(object, "/kind");
  if (!object.is_object() || api_version.empty() || kind_name.empty()) return Verdict{400, "", {}};
  GroupVersionKind gvk;
  try {
    gvk = GroupVersionKind::from(api_version, kind_name);
  } catch (const std::invalid_argument&) {
    return Verdict{400, "", {}};
  }
  auto kind = cluster.find_kind(gvk);
  if (!kind) return verdict_of(manifest_check::no_kind_match(api_version, kind_name));
  return *kind;
}

// The ServiceAccount a Pod names, created in the server when it can be: the other paths assume
// every account that could exist does (rrgen validate has none), so only a name no account can
// have is refused (403) by all three.
void ensure_service_account(const apiserver_test::TestServer& server, const KindInfo& kind, const Json& pod) {
  if (kind.gvk != GroupVersionKind{"", "v1", "Pod"}) return;
  const std::string name = string_at(pod, "/spec/serviceAccountName");
  if (name.empty()) return;
  std::string ns = string_at(pod, "/metadata/namespace");
  if (ns.empty()) ns = "default";
  const Json account{{"apiVersion", "v1"}, {"kind", "ServiceAccount"}, {"metadata", {{"name", name}}}};
  (void)patient_client(server)->Post("/api/v1/namespaces/" + ns + "/serviceaccounts", account.dump(),
                                     "application/json");
}

// POST of `object` to its collection (a namespaced object without a namespace to "default").
Verdict post(const apiserver_test::TestServer& server, const Json& object, bool strict, bool dry_run) {
  const auto routed = route(*server.cluster, object);
  if (const Verdict* refused = std::get_if<Verdict>(&routed)) return *refused;
  const KindInfo& kind = std::get<KindInfo>(routed);
  ensure_service_account(server, kind, object);
  const GroupVersionKind& gvk = kind.gvk;
  std::string path = gvk.group.empty() ? "/api/v1" : "/apis/" + gvk.group + "/" + gvk.version;
  if (kind.namespaced()) {
    std::string ns = string_at(object, "/metadata/namespace");
    path += "/namespaces/" + (ns.empty() ? std::string("default") : ns);
  }
  path += "/" + kind.plural + "?fieldValidation=" + (strict ? "Strict" : "Warn") + (dry_run ? "&dryRun=All" : "");
  auto reply = patient_client(server)->Post(path, object.dump(), "application/json");
  REQUIRE(reply);
  if (reply->status == 201 || reply->status == 200) return Verdict{};
  return verdict_of(Status::from_json(apiserver_test::body_of(reply)));
}

}  // namespace

std::string describe(const Verdict& v) {
  std::string s = std::to_string(v.code) + " " + v.message;
  for (const StatusCause& c : v.causes) s += "\n      [" + c.type + "] " + c.field + ": " + c.message;
  return s;
}

HttpColumn::HttpColumn(bool strict) : server_(std::make_shared<apiserver_test::TestServer>()), strict_(strict) {}

Column HttpColumn::column() {
  auto server = server_;
  const bool strict = strict_;
  return Column{"HTTP API server",
                [server](const Json& crd) {
                  auto reply = patient_client(*server)->Post("/apis/apiextensions.k8s.io/v1/customresourcedefinitions",
                                                             crd.dump(), "application/json");
                  REQUIRE(reply);
                  const Json body = apiserver_test::body_of(reply);
                  // A CRD name given twice: the first stays, as rrgen-validate keeps it.
                  if (reply->status == 409) return body;
                  if (reply->status != 201) throw ApiError(Status::from_json(body));
                  return body;
                },
                [server, strict](const Json& object) { return post(*server, object, strict, true); },
                [server, strict](const Json& object) { return post(*server, object, strict, false); }};
}

InProcessColumn::InProcessColumn() : cluster_(std::make_shared<Cluster>()) {
  // The ServiceAccount plugin as rrgen validate runs it (accounts that could exist are assumed):
  // a table test's cluster has none unless it installs it, as here.
  cluster_->set_admission_plugin(
      std::make_shared<kube_controllers::ServiceAccountAdmission>(std::function<std::string()>(), true));
  for (const KindCodec& row : rr_builtin_types_kinds()) {
    if (row.resource.plural.empty() || row.resource.verbs.find("create") == std::string_view::npos) continue;
    const GroupVersionKind gvk = GroupVersionKind::from(std::string(row.api_version), std::string(row.kind));
    KindInfo info{.gvk = gvk,
                  .plural = std::string(row.resource.plural),
                  .list_kind = std::string(row.kind) + "List",
                  .scope = row.resource.namespaced ? Scope::Namespaced : Scope::Cluster,
                  .has_status = row.resource.has_status};
    // The generated type's apply_defaults() and schema checks, as register_kind<T>() installs them.
    cluster_->register_kind(std::move(info), [&row](Json& object) {
      std::string defaulted;
      auto findings = row.admit(object.dump(), defaulted);
      object = Json::parse(defaulted);
      return findings;
    });
  }
}

namespace {

// A create of `object` in the in-process cluster (a namespaced object without a namespace in
// "default"), stored or dry run: its verdict.
Verdict create_in(Cluster& cluster, const Json& object, bool dry_run) {
  const auto routed = route(cluster, object);
  if (const Verdict* refused = std::get_if<Verdict>(&routed)) return *refused;
  const KindInfo& kind = std::get<KindInfo>(routed);
  Json sent = object;
  if (kind.namespaced() && string_at(sent, "/metadata/namespace").empty()) sent["metadata"]["namespace"] = "default";
  try {
    cluster.create(kind, sent, WriteOptions{.dry_run = dry_run});
  } catch (const ApiError& e) {
    return verdict_of(e.status());
  } catch (const DecodeError& e) {
    return Verdict{400, e.what(), {}};
  }
  return Verdict{};
}

}  // namespace

Column InProcessColumn::column() {
  auto cluster = cluster_;
  return Column{"in-process rr::Cluster", [](const Json& crd) { return crd; },
                [cluster](const Json& object) { return create_in(*cluster, object, true); },
                [cluster](const Json& object) { return create_in(*cluster, object, false); }};
}

CheckerColumn::CheckerColumn(bool strict) : checker_(std::make_shared<manifest_check::Checker>(strict)) {}

Column CheckerColumn::column() {
  auto checker = checker_;
  return Column{"rrgen-validate",
                [checker](const Json& crd) {
                  auto out = checker->add_crd("crd", manifest_check::Document{1, 1, crd});
                  REQUIRE(out);
                  if (out->refusal) throw ApiError(*out->refusal);
                  return crd;
                },
                [checker](const Json& object) {
                  auto out = checker->check("doc", manifest_check::Document{1, 1, object});
                  // No type to route by: the HTTP path cannot even post it (see HttpColumn).
                  const bool routable = !out.kind.empty() && !out.api_version.empty() &&
                                        out.api_version.find('/') == out.api_version.rfind('/');
                  if (!routable) return Verdict{400, "", {}};
                  return out.refusal ? verdict_of(*out.refusal) : Verdict{};
                },
                [checker](const Json& object) {
                  auto out = checker->add_object("policy", manifest_check::Document{1, 1, object});
                  return out.refusal ? verdict_of(*out.refusal) : Verdict{};
                }};
}

}  // namespace rr::manifest_check_test
