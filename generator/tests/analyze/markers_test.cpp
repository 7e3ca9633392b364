// kubebuilder RBAC markers as controller-gen reads them: lists, quotes, the core group, namespace,
// and the malformed ones reported at their place.
#include "analyze/markers.hpp"

#include <doctest/doctest.h>

using namespace rrgen;

namespace {

using Strings = std::vector<std::string>;

std::vector<RbacMarker> read(std::string_view text, Diagnostics& diags) {
  return read_rbac_markers(intern_file_name("hooks.cpp"), text, diags);
}

}  // namespace

TEST_CASE("markers: lists with ';' or braces, quotes, the core group left for normalisation") {
  Diagnostics diags;
  const auto markers = read(
      "int x;\n"
      "// +kubebuilder:rbac:groups=apps,resources=deployments;statefulsets,verbs=get;list\n"
      "  //+kubebuilder:rbac:groups=\"\",resources=secrets,verbs={get,watch}\n"
      "// +kubebuilder:rbac:groups=core,resources=configmaps,verbs=get,namespace=team-a,resourceNames=settings\n"
      "// +kubebuilder:rbac:urls=/metrics;/healthz,verbs=get\n",
      diags);
  CHECK_FALSE(diags.has_errors());
  REQUIRE(markers.size() == 4);
  CHECK(markers[0].location.line == 2);
  CHECK(markers[0].location.column == 4);
  CHECK(markers[0].rule.api_groups == Strings{"apps"});
  CHECK(markers[0].rule.resources == Strings{"deployments", "statefulsets"});
  CHECK(markers[0].rule.verbs == Strings{"get", "list"});
  CHECK(markers[1].location.column == 5);
  CHECK(markers[1].rule.api_groups == Strings{""});
  CHECK(markers[1].rule.verbs == Strings{"get", "watch"});
  CHECK(markers[2].namespace_ == "team-a");
  CHECK(markers[2].rule.api_groups == Strings{"core"});
  CHECK(markers[2].rule.resource_names == Strings{"settings"});
  CHECK(markers[3].rule.non_resource_urls == Strings{"/metrics", "/healthz"});
  CHECK(markers[3].rule.api_groups.empty());
}

TEST_CASE("markers: no groups= means the core group, as controller-gen's default") {
  Diagnostics diags;
  const auto markers = read("// +kubebuilder:rbac:resources=pods,verbs=list\n", diags);
  REQUIRE(markers.size() == 1);
  CHECK(markers[0].rule.api_groups == Strings{""});
}

TEST_CASE("markers: outside a // comment, or another marker, nothing is read") {
  Diagnostics diags;
  CHECK(read("const char* s = \"+kubebuilder:rbac:groups=x,resources=y,verbs=get\";\n"
             "// +kubebuilder:object:root=true\n"
             "/* +kubebuilder:rbac:groups=x,resources=y,verbs=get */\n",
             diags)
            .empty());
  CHECK_FALSE(diags.has_errors());
}

TEST_CASE("markers: a malformed marker is an error at its position and is left out") {
  const char* bad[] = {
      "// +kubebuilder:rbac:groups=apps,resources=deployments\n",                       // no verbs
      "// +kubebuilder:rbac:groups=apps,verbs=get\n",                                   // no resources or urls
      "// +kubebuilder:rbac:groups=apps,resources=deployments,verbs=get,colour=red\n",  // unknown key
      "// +kubebuilder:rbac:groups=apps,resources,verbs=get\n",                         // no '='
  };
  for (const char* text : bad) {
    CAPTURE(text);
    Diagnostics diags;
    CHECK(read(text, diags).empty());
    REQUIRE(diags.all().size() == 1);
    CHECK(diags.all()[0].check == "rbac-marker-invalid");
    CHECK(diags.all()[0].location.line == 1);
    CHECK(diags.all()[0].location.column == 4);
  }
}
