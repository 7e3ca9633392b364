#include "admission_paths.hpp"

#include <doctest/doctest.h>

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

// POST of `object` to its collection (a namespaced object without a namespace to "default").
Verdict post(const apiserver_test::TestServer& server, const Json& object, bool strict, bool dry_run) {
  const std::string api_version = string_at(object, "/apiVersion"), kind_name = string_at(object, "/kind");
  if (!object.is_object() || api_version.empty() || kind_name.empty()) return Verdict{400, "", {}};
  GroupVersionKind gvk;
  try {
    gvk = GroupVersionKind::from(api_version, kind_name);
  } catch (const std::invalid_argument&) {
    return Verdict{400, "", {}};
  }
  const auto kind = server.cluster->find_kind(gvk);
  if (!kind) return verdict_of(manifest_check::no_kind_match(api_version, kind_name));
  std::string path = gvk.group.empty() ? "/api/v1" : "/apis/" + gvk.group + "/" + gvk.version;
  if (kind->namespaced()) {
    std::string ns = string_at(object, "/metadata/namespace");
    path += "/namespaces/" + (ns.empty() ? std::string("default") : ns);
  }
  path += "/" + kind->plural + "?fieldValidation=" + (strict ? "Strict" : "Warn") + (dry_run ? "&dryRun=All" : "");
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
