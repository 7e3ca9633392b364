// Label selectors: grammar, validation errors, canonical text, matching, metav1.LabelSelector.
#include <doctest/doctest.h>

#include <map>
#include <stdexcept>
#include <string>

#include "rr/client/label_selector.hpp"

namespace {

using rr::Selector;
using Labels = std::map<std::string, std::string>;

std::string selector_parse_error(const std::string& text) {
  try {
    (void)Selector::parse(text);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

std::string from_error(const rr::LabelSelector& selector) {
  try {
    (void)Selector::from(selector);
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "no error";
}

rr::LabelSelectorRequirement expression(std::string key, std::string op,
                                        std::optional<std::vector<std::string>> values = std::nullopt) {
  rr::LabelSelectorRequirement r;
  r.key = std::move(key);
  r.operator_ = std::move(op);
  r.values = std::move(values);
  return r;
}

}  // namespace

TEST_CASE("Selector::parse: grammar and canonical str()") {
  const std::pair<const char*, const char*> cases[] = {
      {"", ""},
      {" \t\r\n", ""},
      {"a=b", "a=b"},
      {"a==b", "a=b"},
      {"a!=b", "a!=b"},
      {"  a  =  b  ", "a=b"},
      {"a", "a"},
      {"!a", "!a"},
      {"! a", "!a"},
      {"a in (x,y)", "a in (x,y)"},
      {"a in (y, x, y)", "a in (x,y)"},
      {"a in(x)", "a in (x)"},
      {"a\tin\n(x)", "a in (x)"},
      {"a notin (x)", "a notin (x)"},
      {"a in ()", "a in ()"},
      {"a in (,x)", "a in (,x)"},
      {"a in (x,)", "a in (,x)"},
      {"a in (x,,y)", "a in (,x,y)"},
      {"a in (,)", "a in ()"},
      {"a=", "a="},
      {"a=,b", "a=,b"},
      {"a!=", "a!="},
      {"z=1,a=2,m", "a=2,m,z=1"},
      {"x,!y,z notin (a)", "x,!y,z notin (a)"},
      {"a=b,a=b", "a=b"},
      {"a!=x,a=y,a", "a=y,a!=x,a"},
      {"a>1", "a>1"},
      {"a < 10", "a<10"},
      {"example.com/app=web", "example.com/app=web"},
      {"app.kubernetes.io/name in (my-app, My_App.2)", "app.kubernetes.io/name in (My_App.2,my-app)"},
      {"in=notin", "in=notin"},
      {"in in (in,notin)", "in in (in,notin)"},
      {"notin", "notin"},
      {"!in", "!in"},
      {"notin notin (in)", "notin notin (in)"},
      {"a=b,c in (x,y),!d", "a=b,c in (x,y),!d"},
  };
  for (const auto& row : cases) {
    const auto& [input, canonical] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    const Selector s = Selector::parse(input);
    CHECK(s.str() == canonical);
    CHECK(Selector::parse(s.str()) == s);
    CHECK(s.empty() == (std::string(canonical).empty()));
  }
}

TEST_CASE("Selector::parse: requirements are sorted, deduplicated, with sorted values") {
  const Selector s = Selector::parse("b in (z, y), a");
  REQUIRE(s.requirements().size() == 2);
  CHECK(s.requirements()[0] == Selector::Requirement{"a", Selector::Op::Exists, {}});
  CHECK(s.requirements()[1] == Selector::Requirement{"b", Selector::Op::In, {"y", "z"}});
  CHECK(Selector::parse("a=1,b=2") == Selector::parse("b==2, a=1"));
  CHECK_FALSE(Selector::parse("a=1") == Selector::parse("a in (1)"));
}

TEST_CASE("Selector::parse: errors name the column and what was expected") {
  const std::string long_name(64, 'k');
  const std::string long_value(64, 'v');
  const std::pair<std::string, std::string> cases[] = {
      {"a b", "at column 3: found 'b', expected an operator: in, notin, =, ==, !=, >, <"},
      {"a=b c", "at column 5: found 'c', expected: ',' or end of string"},
      {"a=b,", "at column 5: found end of string, expected: '!' or a key after ','"},
      {"a=b,,c", "at column 5: found ',', expected: '!' or a key after ','"},
      {",a", "at column 1: found ',', expected: '!' or a key"},
      {"=a", "at column 1: found '=', expected: '!' or a key"},
      {"(a)", "at column 1: found '(', expected: '!' or a key"},
      {"a in x", "at column 6: found 'x', expected: '('"},
      {"a in", "at column 5: found end of string, expected: '('"},
      {"a in (x", "at column 8: found end of string, expected: ',' or ')'"},
      {"a in (x y)", "at column 9: found 'y', expected: ',' or ')'"},
      {"a in (=)", "at column 7: found '=', expected: ',', ')' or a value"},
      {"a in (x,=)", "at column 9: found '=', expected: ',', ')' or a value"},
      {"a=(", "at column 3: found '(', expected: a value"},
      {"a=b=c", "at column 4: found '=', expected: ',' or end of string"},
      {"a<>1", "at column 3: found '>', expected: a value"},
      {"!", "at column 2: found end of string, expected: a key"},
      {"!!a", "at column 2: found '!', expected: a key"},
      {"!a=b", "at column 3: found '=', expected: ',' or end of string"},
      {"-a=b", "at column 1: invalid key \"-a\": name part must consist of alphanumeric characters"},
      {"a_=b", "at column 1: invalid key \"a_\": name part must consist of alphanumeric characters"},
      {"a/b/c", "at column 1: invalid key \"a/b/c\": a qualified name must consist of"},
      {"Example.com/a", "at column 1: invalid key \"Example.com/a\": prefix part a lowercase RFC 1123 subdomain"},
      {"ex..com/a", "prefix part a lowercase RFC 1123 subdomain"},
      {"/a", "at column 1: invalid key \"/a\": prefix part must be non-empty"},
      {"x, a/", "at column 4: invalid key \"a/\": name part must be non-empty"},
      {long_name, "name part must be no more than 63 characters"},
      {"p/" + long_name, "name part must be no more than 63 characters"},
      {std::string(254, 'p') + "/a", "prefix part must be no more than 253 characters"},
      {"a=-b", "at column 3: invalid value \"-b\": a valid label must be an empty string or consist of"},
      {"a in (x, y_)", "at column 10: invalid value \"y_\": a valid label must be"},
      {"a=" + long_value, "at column 3: invalid value \"" + long_value + "\": must be no more than 63 characters"},
      {"a>x", "at column 3: invalid value \"x\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"a>", "at column 3: invalid value \"\": for 'Gt', 'Lt' operators, the value must be an integer"},
      {"a=\xc3\xa9", "invalid value \"\xc3\xa9\": a valid label must be"},
  };
  for (const auto& row : cases) {
    const auto& [input, message] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    const std::string error = selector_parse_error(input);
    CHECK(error.find("invalid label selector \"" + input + "\": ") == 0);
    CHECK(error.find(message) != std::string::npos);
  }
  // Control characters are escaped, so a NUL cannot cut the message short.
  CHECK(selector_parse_error(std::string("a=b\0c", 5)) ==
        "invalid label selector \"a=b\\x00c\": at column 3: invalid value \"b\\x00c\": a valid label must be an "
        "empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
        "alphanumeric character (e.g. 'MyValue', 'my_value' or '12345')");
}

TEST_CASE("Selector::matches") {
  const Labels labels = {{"app", "web"}, {"tier", "front"}, {"n", "5"}, {"empty", ""}};
  const std::pair<const char*, bool> cases[] = {
      {"", true},
      {"app=web", true},
      {"app==web", true},
      {"app=db", false},
      {"app!=db", true},
      {"app!=web", false},
      {"missing=x", false},
      {"missing!=x", true},  // != matches when the key is absent
      {"app in (web,db)", true},
      {"app in (db)", false},
      {"app notin (web)", false},
      {"app notin (db)", true},
      {"missing in (x)", false},
      {"missing notin (x)", true},  // notin matches when the key is absent
      {"app", true},
      {"!app", false},
      {"missing", false},
      {"!missing", true},
      {"empty", true},
      {"empty=", true},
      {"empty in ()", true},
      {"empty!=", false},
      {"missing=", false},
      {"missing!=", true},
      {"n>4", true},
      {"n>5", false},
      {"n<6", true},
      {"n<5", false},
      {"tier>1", false},  // not an integer
      {"missing>1", false},
      {"missing<1", false},
      {"app=web,tier=front", true},
      {"app=web,tier=back", false},
      {"app=web,tier in (front,back),!old,n", true},
  };
  for (const auto& row : cases) {
    const auto& [text, expected] = row;
    CAPTURE(row.first);  // clang 14 cannot capture a structured binding
    CHECK(Selector::parse(text).matches(labels) == expected);
  }
  CHECK(Selector().matches({}));
  CHECK_THROWS_AS(Selector::parse("n>-1"), std::invalid_argument);  // "-1" is not a label value
  CHECK(Selector::parse("a<100").matches({{"a", "099"}}));
  CHECK(Selector::parse("a>1").matches({{"a", "+2"}}));  // label values parse as strconv.ParseInt does
  CHECK_FALSE(Selector::parse("a>1").matches({{"a", "+-2"}}));
  CHECK_FALSE(Selector::parse("a>1").matches({{"a", "99999999999999999999"}}));
}

TEST_CASE("Selector::from(LabelSelector): metav1.LabelSelectorAsSelector") {
  SUBCASE("an empty selector matches everything") {
    const Selector everything = Selector::from(rr::LabelSelector{});
    CHECK(everything.empty());
    CHECK(everything.matches({{"any", "thing"}}));
    rr::LabelSelector empty_members;
    empty_members.match_labels.emplace();
    empty_members.match_expressions.emplace();
    CHECK(Selector::from(empty_members).empty());
  }
  SUBCASE("matchLabels and matchExpressions together") {
    rr::LabelSelector ls;
    ls.match_labels = std::map<std::string, std::string>{{"c", "d"}, {"a", "b"}};
    ls.match_expressions = std::vector<rr::LabelSelectorRequirement>{
        expression("e", "In", std::vector<std::string>{"y", "x"}),
        expression("f", "NotIn", std::vector<std::string>{"z"}),
        expression("g", "Exists"),
        expression("h", "DoesNotExist", std::vector<std::string>{}),
    };
    const Selector s = Selector::from(ls);
    CHECK(s.str() == "a=b,c=d,e in (x,y),f notin (z),g,!h");
    CHECK(s == Selector::parse("a=b,c=d,e in (x,y),f notin (z),g,!h"));
    CHECK(s.matches({{"a", "b"}, {"c", "d"}, {"e", "x"}, {"g", ""}}));
    CHECK_FALSE(s.matches({{"a", "b"}, {"c", "d"}, {"e", "x"}, {"g", ""}, {"h", "1"}}));
    CHECK_FALSE(s.matches({{"a", "b"}, {"c", "d"}, {"e", "x"}, {"g", ""}, {"f", "z"}}));
    CHECK_FALSE(s.matches({{"a", "b"}, {"c", "d"}, {"e", "x"}}));
  }
  SUBCASE("invalid selectors") {
    rr::LabelSelector unknown_op;
    unknown_op.match_expressions = std::vector<rr::LabelSelectorRequirement>{
        expression("a", "Exists"), expression("b", "Equals", std::vector<std::string>{"x"})};
    CHECK(from_error(unknown_op) ==
          "invalid label selector: matchExpressions[1]: \"Equals\" is not a valid label selector operator");

    rr::LabelSelector in_without_values;
    in_without_values.match_expressions = std::vector<rr::LabelSelectorRequirement>{expression("a", "In")};
    CHECK(from_error(in_without_values) ==
          "invalid label selector: matchExpressions[0]: for 'in', 'notin' operators, values set can't be empty");

    rr::LabelSelector exists_with_values;
    exists_with_values.match_expressions =
        std::vector<rr::LabelSelectorRequirement>{expression("a", "Exists", std::vector<std::string>{"x"})};
    CHECK(from_error(exists_with_values) ==
          "invalid label selector: matchExpressions[0]: values set must be empty for exists and does not exist");

    rr::LabelSelector bad_key;
    bad_key.match_labels = std::map<std::string, std::string>{{"bad key", "x"}};
    CHECK(from_error(bad_key).find("invalid label selector: matchLabels[\"bad key\"]: invalid key \"bad key\": name part") == 0);

    rr::LabelSelector bad_value;
    bad_value.match_labels = std::map<std::string, std::string>{{"k", "a b"}};
    CHECK(from_error(bad_value).find("invalid label selector: matchLabels[\"k\"]: invalid value \"a b\": a valid label") == 0);

    rr::LabelSelector bad_expression_value;
    bad_expression_value.match_expressions =
        std::vector<rr::LabelSelectorRequirement>{expression("k", "NotIn", std::vector<std::string>{"ok", "(x)"})};
    CHECK(from_error(bad_expression_value).find("matchExpressions[0]: invalid value \"(x)\"") != std::string::npos);
  }
}

TEST_CASE("Selector::from_labels: every label as key=value") {
  const Selector s = Selector::from_labels({{"b", "2"}, {"a", "1"}});
  CHECK(s.str() == "a=1,b=2");
  CHECK(s == Selector::parse("b=2,a=1"));
  CHECK(s.matches({{"a", "1"}, {"b", "2"}, {"c", "3"}}));
  CHECK_FALSE(s.matches({{"a", "1"}}));
  CHECK(Selector::from_labels({}).empty());
}
