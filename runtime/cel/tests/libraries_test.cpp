// Kubernetes' CEL libraries beyond the conformance files: lists, regex, URLs, quantities, semver,
// sets, and the ordering functions they share.
#include <doctest/doctest.h>

#include "rr/cel/program.hpp"

using namespace rr::cel;

namespace {

std::string show_result(std::string_view source) {
  auto compiled = compile(source);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  return debug_string(compiled.program->evaluate({}));
}

bool fails(std::string_view source, std::string_view message) {
  auto compiled = compile(source);
  REQUIRE_MESSAGE(compiled.ok(), compiled.error_text);
  const Value v = compiled.program->evaluate({});
  return v.is_error() && v.error_message().find(message) != std::string::npos;
}

}  // namespace

TEST_CASE("lists library") {
  CHECK(show_result("[1, 2, 3].isSorted() && !['a', 'c', 'b'].isSorted()") == "true");
  CHECK(show_result("[1, 2, 3].sum()") == "6");
  CHECK(show_result("[1.5, 2.5].sum()") == "4");
  CHECK(show_result("[duration('1s'), duration('2s')].sum()") == "duration(\"3s\")");
  CHECK(show_result("[].sum()") == "0");
  CHECK(show_result("[3, 1, 2].max() == 3 && [3, 1, 2].min() == 1") == "true");
  CHECK(fails("[].min()", "empty list"));
  CHECK(show_result("[1, 2, 2, 3].indexOf(2)") == "1");
  CHECK(show_result("[1, 2, 2, 3].lastIndexOf(2)") == "2");
  CHECK(show_result("[1, 2].indexOf(5)") == "-1");
  CHECK(show_result("'abcb'.indexOf('b')") == "1");  // strings keep their indexOf
}

TEST_CASE("regex library") {
  CHECK(show_result("'abc 123'.find('[0-9]+')") == "\"123\"");
  CHECK(show_result("'abc'.find('[0-9]+')") == "\"\"");
  CHECK(show_result("'123 abc 456'.findAll('[0-9]+')") == "[\"123\", \"456\"]");
  CHECK(show_result("'123 abc 456'.findAll('[0-9]+', 1)") == "[\"123\"]");
  CHECK_FALSE(compile("'a'.find('(')").ok());  // a bad constant pattern does not compile
  CHECK(fails("'a'.findAll('(' + '')", "invalid regular expression"));
}

TEST_CASE("URL library") {
  CHECK(show_result("url('https://example.com:8080/a/b?x=1').getHost()") == "\"example.com:8080\"");
  CHECK(show_result("url('https://example.com:8080/a/b').getHostname()") == "\"example.com\"");
  CHECK(show_result("url('https://example.com:8080/a/b').getPort()") == "\"8080\"");
  CHECK(show_result("url('https://[::1]:80/').getHostname()") == "\"::1\"");
  CHECK(show_result("url('https://example.com/a%20b').getEscapedPath()") == "\"/a%20b\"");
  CHECK(show_result("url('/absolute/path').getScheme()") == "\"\"");
  CHECK(show_result("url('https://example.com/?k=a&k=b&x').getQuery()") == "{\"k\": [\"a\", \"b\"], \"x\": [\"\"]}");
  CHECK(show_result("isURL('https://example.com') && !isURL('../relative') && !isURL('https://a b')") == "true");
  // Userinfo and host characters as Go's url.ParseRequestURI checks them ('#' is in neither set).
  CHECK(show_result("isURL('http://user:pa$$@host:80/p') && isURL('http://[::1]:8080/')") == "true");
  CHECK(show_result("isURL('http://#%blah$#@') || isURL('http://ho^st/') || isURL('http://a{b}@host/')") == "false");
  CHECK(fails("url('not a url')", "URL parse error"));
}

TEST_CASE("quantity library") {
  CHECK(show_result("quantity('1k') == quantity('1000')") == "true");
  CHECK(show_result("quantity('1Gi').isGreaterThan(quantity('1G'))") == "true");
  CHECK(show_result("quantity('1Ki').compareTo(quantity('1024'))") == "0");
  CHECK(show_result("quantity('500m').isInteger()") == "false");
  CHECK(show_result("quantity('1.5').asApproximateFloat()") == "1.5");
  CHECK(show_result("quantity('1k').add(quantity('500')).asInteger()") == "1500");
  CHECK(show_result("quantity('200M').sub(100000000).asInteger()") == "100000000");
  CHECK(show_result("quantity('1').sub(quantity('1500m'))") == "kubernetes.Quantity(\"-500m\")");
  CHECK(show_result("quantity('-50k').sign()") == "-1");
  CHECK(show_result("isQuantity('1.5Gi') && !isQuantity('1.5Gb')") == "true");
  CHECK(fails("quantity('500m').asInteger()", "cannot convert"));
  CHECK(fails("quantity('x')", "quantities must match"));
  CHECK(show_result("type(quantity('1')) == kubernetes.Quantity") == "true");
}

TEST_CASE("semver library") {
  CHECK(show_result("semver('1.2.3').major() == 1 && semver('1.2.3').minor() == 2 && semver('1.2.3').patch() == 3") ==
        "true");
  CHECK(show_result("semver('1.0.0-alpha').isLessThan(semver('1.0.0'))") == "true");
  CHECK(show_result("semver('1.0.0-alpha.1').compareTo(semver('1.0.0-alpha.beta'))") == "-1");
  CHECK(show_result("semver('1.0.0+build.1') == semver('1.0.0')") == "true");
  CHECK(show_result("isSemver('v1.0', true) && !isSemver('v1.0') && !isSemver('01.0.0')") == "true");
  CHECK(fails("semver('1.0')", "invalid semver"));
  CHECK(fails("semver('1.0.0').isLessThan(quantity('1'))", "no matching overload"));
}

TEST_CASE("sets extension") {
  CHECK(show_result("sets.contains([1, 2, 3], [2, 3])") == "true");
  CHECK(show_result("sets.contains([1, 2], [4])") == "false");
  CHECK(show_result("sets.equivalent([1, 2], [2, 1, 1])") == "true");
  CHECK(show_result("sets.intersects([1, 2], [3])") == "false");
  CHECK(show_result("sets.intersects([1, 2], [2.0])") == "true");
}

TEST_CASE("format library") {
  CHECK(show_result("format.dns1123Label().validate('my-name')") == "optional.none()");
  CHECK(show_result("format.dns1123Label().validate('My_Name').value().size()") == "1");
  CHECK(show_result("format.dns1123Label().validate('My_Name').value()[0].startsWith('a lowercase RFC 1123 label')") ==
        "true");
  CHECK(show_result("format.dns1123Subdomain().validate('example.com').hasValue()") == "false");
  CHECK(show_result("format.dns1035Label().validate('1abc').hasValue()") == "true");
  CHECK(show_result("format.dns1123LabelPrefix().validate('my-name-').hasValue()") == "false");
  CHECK(show_result("format.qualifiedName().validate('example.com/MyName').hasValue()") == "false");
  CHECK(show_result("format.qualifiedName().validate('/MyName').value()") == "[\"prefix part must be non-empty\"]");
  CHECK(show_result("format.labelValue().validate('').hasValue()") == "false");
  CHECK(show_result("format.named('uuid').value().validate('123e4567-e89b-12d3-a456-426614174000').hasValue()") ==
        "false");
  CHECK(show_result("format.named('nope').hasValue()") == "false");
  CHECK(show_result("format.date().validate('2024-02-30').hasValue() && "
                    "!format.datetime().validate('2024-02-03T04:05:06Z').hasValue()") == "true");
  // An optional never equals null (cel-go's Optional.Equal), whatever it holds.
  CHECK(show_result("format.dns1123Label().validate('ok') == null") == "false");
}

TEST_CASE("lists extension") {
  CHECK(show_result("[1, 2, 3, 4].slice(1, 3)") == "[2, 3]");
  CHECK(fails("[1, 2].slice(1, 5)", "list is length 2"));
  CHECK(show_result("[1, [2, [3]]].flatten()") == "[1, 2, [3]]");
  CHECK(show_result("[1, [2, [3]]].flatten(2)") == "[1, 2, 3]");
  CHECK(show_result("[1, 2, 1, 2.0, 3].distinct()") == "[1, 2, 3]");
  CHECK(show_result("[3, 1, 2].sort()") == "[1, 2, 3]");
  CHECK(show_result("['b', 'a'].sort()") == "[\"a\", \"b\"]");
  CHECK(fails("[1, 'a'].sort()", "same comparable type"));
  CHECK(show_result("[{'n': 'b', 'p': 2}, {'n': 'a', 'p': 1}].sortBy(x, x.p).map(x, x.n)") == "[\"a\", \"b\"]");
  CHECK(show_result("[3, 1, 2].reverse()") == "[2, 1, 3]");
  CHECK(show_result("[1, 2].first()") == "optional.of(1)");
  CHECK(show_result("[].last()") == "optional.none()");
  CHECK(show_result("lists.range(3)") == "[0, 1, 2]");
}
