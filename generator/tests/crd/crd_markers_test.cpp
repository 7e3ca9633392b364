// The comment markers of rrgen crd (crd/crd_markers): forms, values, JSON defaults, what is
// refused and where.
#include "crd/crd_markers.hpp"

#include <doctest/doctest.h>

#include <string>
#include <vector>

namespace {

using rrgen::CommentLine;
using rrgen::Diagnostics;
using rrgen::Location;

std::vector<CommentLine> lines(const std::vector<std::string>& texts) {
  std::vector<CommentLine> out;
  std::uint32_t n = 10;
  for (const std::string& t : texts) out.push_back({Location{rrgen::intern_file_name("t.hpp"), n++, 6}, t});
  return out;
}

}  // namespace

TEST_CASE("crd markers: values, arguments and flags; the other lines are the description") {
  Diagnostics diags;
  const rrgen::CommentFacts f = rrgen::read_comment(
      lines({"How many pods to run.", "At most ten.", "", "A second paragraph.", "+kubebuilder:validation:Minimum=0",
             "+kubebuilder:validation:XValidation:rule=\"self.a, self.b\",message=`no, really`",
             "+kubebuilder:subresource:status", "+kubebuilder:rbac:groups=apps,resources=deployments,verbs=get",
             "JSON: \"configMapName\""}),
      diags);
  CHECK_FALSE(diags.has_errors());
  CHECK(f.description == "How many pods to run. At most ten.\n\nA second paragraph.");
  REQUIRE(f.markers.size() == 4);  // the rbac marker is rrgen analyze's
  CHECK(f.markers[0].name == "kubebuilder:validation:Minimum");
  CHECK(f.markers[0].form == rrgen::MarkerForm::Value);
  CHECK(f.markers[0].value == "0");
  CHECK(f.markers[0].at.line == 14);
  CHECK(f.markers[1].name == "kubebuilder:validation:XValidation");
  REQUIRE(f.markers[1].args.size() == 2);  // the commas inside the quotes do not split
  CHECK(f.markers[1].arg("rule") == "\"self.a, self.b\"");
  CHECK(f.markers[1].arg("message") == "`no, really`");
  CHECK(f.markers[2].form == rrgen::MarkerForm::Flag);
  CHECK(f.markers[3].name == "json:name");
  CHECK(f.markers[3].value == "\"configMapName\"");
}

TEST_CASE("crd markers: unknown and malformed markers are errors at their line") {
  Diagnostics diags;
  const rrgen::CommentFacts f = rrgen::read_comment(
      lines({"+kubebuilder:validation:Frobnicate=1", "+kubebuilder:subresource:status=true",
             "+kubebuilder:validation:Minimum", "+kubebuilder:printcolumn:name"}),
      diags);
  CHECK(f.markers.empty());
  REQUIRE(diags.all().size() == 4);
  CHECK(diags.all()[0].check == "crd-marker-unknown");
  CHECK(diags.all()[0].location.line == 10);
  CHECK(diags.all()[1].check == "crd-marker-invalid");
  CHECK(diags.all()[1].message.find("takes no value") != std::string::npos);
  CHECK(diags.all()[2].message.find("needs a value") != std::string::npos);
  CHECK(diags.all()[3].message.find("has no '='") != std::string::npos);
}

TEST_CASE("crd markers: strings, lists, numbers and JSON values") {
  std::string why;
  CHECK(rrgen::marker_string("\"a\\\"b\\u00e9\"", why) == std::optional<std::string>("a\"b\xc3\xa9"));
  CHECK(rrgen::marker_string("`^a\\.b$`", why) == std::optional<std::string>("^a\\.b$"));
  CHECK(rrgen::marker_string("plain text", why) == std::optional<std::string>("plain text"));
  CHECK_FALSE(rrgen::marker_string("\"unterminated", why));
  CHECK(rrgen::marker_list("a;b;\"c;d\"") == std::vector<std::string>{"a", "b", "c;d"});
  CHECK(rrgen::marker_list("{x,y}") == std::vector<std::string>{"x", "y"});
  CHECK(rrgen::json_number("-1.5e3") == std::optional<std::string>("-1.5e3"));
  CHECK_FALSE(rrgen::json_number("01"));
  CHECK_FALSE(rrgen::json_number("1."));
  CHECK(rrgen::marker_count("42") == std::optional<long long>(42));
  CHECK_FALSE(rrgen::marker_count("-1"));

  const std::optional<rrgen::Yaml> v = rrgen::json_value(R"({"a": [1, true, null, "x"], "b": {}})", why);
  REQUIRE(v);
  CHECK(v->text() == "a:\n- 1\n- true\n- null\n- x\nb: {}\n");
  CHECK_FALSE(rrgen::json_value("{\"a\": }", why));
  CHECK(why.find("not a JSON value") != std::string::npos);
  CHECK_FALSE(rrgen::json_value("[1] 2", why));
  CHECK_FALSE(rrgen::json_value(std::string(100, '['), why));
  CHECK(why.find("deeper than 64") != std::string::npos);
  CHECK_FALSE(rrgen::json_value("\"\\ud800\"", why));  // a lone surrogate
}
