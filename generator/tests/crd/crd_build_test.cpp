// rrgen crd's decisions on declarations alone (crd/crd_build): names, required members, markers
// checked against the member's type, kinds and versions.
#include "crd/crd_build.hpp"

#include <doctest/doctest.h>

#include <string>

#include "support/naming.hpp"

namespace {

using namespace rrgen;

CxxType simple(CxxKind k, std::string spelling = "T") {
  CxxType t;
  t.kind = k;
  t.spelling = std::move(spelling);
  return t;
}

CxxType wrap(CxxKind k, CxxType inner) {
  CxxType t = simple(k);
  t.args.push_back(std::move(inner));
  return t;
}

CxxField field(const std::string& name, CxxType t, std::vector<std::string> comment = {}, std::uint32_t line = 5) {
  CxxField f;
  f.name = name;
  f.type = std::move(t);
  f.at = Location{intern_file_name("types.hpp"), line, 3};
  for (std::string& c : comment) f.comment.push_back({Location{f.at.file, line - 1, 6}, std::move(c)});
  return f;
}

// A model of one kind Widget (root marked) whose spec holds `spec_fields`.
CxxModel widget(std::vector<CxxField> spec_fields, std::vector<std::string> root_comment = {}) {
  CxxModel m;
  CxxRecord spec;
  spec.name = "WidgetSpec";
  spec.qualified = "w::WidgetSpec";
  spec.in_inputs = true;
  spec.fields = std::move(spec_fields);
  CxxRecord root;
  root.name = "Widget";
  root.qualified = "w::Widget";
  root.in_inputs = true;
  root.at = Location{intern_file_name("types.hpp"), 20, 8};
  for (std::string& c : root_comment) root.comment.push_back({Location{root.at.file, 19, 4}, std::move(c)});
  root.fields.push_back(field("metadata", simple(CxxKind::ObjectMeta)));
  CxxType spec_type = simple(CxxKind::Record);
  spec_type.record = "w::WidgetSpec";
  root.fields.push_back(field("spec", wrap(CxxKind::Optional, spec_type)));
  m.records["w::WidgetSpec"] = std::move(spec);
  m.records["w::Widget"] = std::move(root);
  m.order = {"w::WidgetSpec", "w::Widget"};
  return m;
}

std::string only_file(const std::vector<BuiltCrd>& crds) {
  const OutputSet out = crd_files(crds);
  REQUIRE(out.files.size() == 1);
  return out.files.front().content;
}

}  // namespace

TEST_CASE("crd build: member names map back to the JSON names rrgen types maps from") {
  for (const char* json :
       {"configMapName", "image", "namespace", "operator", "class", "apiVersion", "observedGeneration"}) {
    CAPTURE(json);
    CHECK(json_name_of_member(field_name(json)) == json);
  }
  CHECK(json_name_of_member("_2xx") == "2xx");
  CHECK(plural_of_kind("WebApp") == "webapps");
  CHECK(plural_of_kind("Policy") == "policies");
  CHECK(plural_of_kind("Ingress") == "ingresses");
  CHECK(plural_of_kind("Gateway") == "gateways");
}

TEST_CASE("crd build: optional members are not required; markers set the schema") {
  Diagnostics diags;
  const std::vector<BuiltCrd> out = build_crds(
      widget({field("image", simple(CxxKind::String), {"The image.", "+kubebuilder:validation:MinLength=1"}),
              field("replicas", wrap(CxxKind::Optional, simple(CxxKind::Int32)),
                    {"+kubebuilder:validation:Maximum=10", "+kubebuilder:default=1"}),
              field("labels", wrap(CxxKind::Map, simple(CxxKind::String)))},
             {"+kubebuilder:object:root=true", "+kubebuilder:resource:scope=Cluster,shortName=wd;w"}),
      CrdOptions{"example.com", "v1", "Namespaced"}, diags);
  CHECK_FALSE(diags.has_errors());
  REQUIRE(out.size() == 1);
  CHECK(out[0].file == "example.com_widgets.yaml");
  const std::string text = only_file(out);
  CHECK(text.find("  scope: Cluster\n") != std::string::npos);
  CHECK(text.find("    shortNames:\n    - wd\n    - w\n") != std::string::npos);
  // image and labels are required, replicas (rr::Optional) is not
  CHECK(text.find("            required:\n            - image\n            - labels\n            properties:\n") !=
        std::string::npos);
  CHECK(text.find("              image:\n                description: The image.\n                type: string\n"
                  "                minLength: 1\n") != std::string::npos);
  CHECK(text.find("              replicas:\n                type: integer\n                format: int32\n"
                  "                default: 1\n                maximum: 10\n") != std::string::npos);
  CHECK(text.find("              labels:\n                type: object\n                additionalProperties:\n"
                  "                  type: string\n") != std::string::npos);
}

TEST_CASE("crd build: a marker on a member of the wrong type, or in the wrong place, is an error at the marker") {
  Diagnostics diags;
  build_crds(widget({field("count", simple(CxxKind::Int32), {"+kubebuilder:validation:Pattern=^a$"}, 7),
                     field("names", wrap(CxxKind::Vector, simple(CxxKind::String)), {"+listType=map"}, 9),
                     field("name", simple(CxxKind::String), {"+kubebuilder:subresource:status"}, 11),
                     field("any", wrap(CxxKind::Vector, wrap(CxxKind::Optional, simple(CxxKind::String))), {}, 13)}),
             CrdOptions{"example.com"}, diags);
  REQUIRE(diags.error_count() == 4);
  CHECK(diags.all()[0].check == "crd-marker-type");
  CHECK(diags.all()[0].location.line == 6);
  CHECK(diags.all()[1].check == "crd-list-map-key");
  CHECK(diags.all()[2].check == "crd-marker-misplaced");
  CHECK(diags.all()[3].check == "crd-unsupported-type");
  CHECK(diags.all()[3].location.line == 13);
}

TEST_CASE("crd build: several versions of a kind need one marked as the storage version") {
  CxxModel m = widget({field("image", simple(CxxKind::String))}, {"+kubebuilder:object:root=true"});
  CxxRecord v2 = m.records.at("w::Widget");
  v2.qualified = "w::v2::Widget";
  v2.version = "v2";
  m.records["w::v2::Widget"] = v2;
  m.order.push_back("w::v2::Widget");
  {
    Diagnostics diags;
    build_crds(m, CrdOptions{"example.com"}, diags);
    REQUIRE(diags.error_count() == 1);
    CHECK(diags.all()[0].check == "crd-storage-version");
  }
  m.records.at("w::v2::Widget").comment.push_back({Location{}, "+kubebuilder:storageversion"});
  Diagnostics diags;
  const std::string text = only_file(build_crds(m, CrdOptions{"example.com"}, diags));
  CHECK_FALSE(diags.has_errors());
  // v2 first (newer), stored; v1 served, not stored
  const std::size_t v2_at = text.find("  - name: v2\n    served: true\n    storage: true\n");
  const std::size_t v1_at = text.find("  - name: v1\n    served: true\n    storage: false\n");
  CHECK(v2_at != std::string::npos);
  CHECK(v1_at != std::string::npos);
  CHECK(v2_at < v1_at);
}

TEST_CASE("crd build: no kind is an error") {
  Diagnostics diags;
  CxxModel m;
  build_crds(m, CrdOptions{"example.com"}, diags);
  REQUIRE(diags.error_count() == 1);
  CHECK(diags.all()[0].check == "crd-no-kind");
}
