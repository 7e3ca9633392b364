// Port numbers and names, env var names and config keys against upstream's good and bad values.
#include <doctest/doctest.h>

#include "rr/validation/ports.hpp"

using namespace rr::validation;

TEST_CASE("IsValidPortNum: 1 to 65535") {
  CHECK(is_valid_port_num(1).empty());
  CHECK(is_valid_port_num(65535).empty());
  CHECK(is_valid_port_num(0) == Messages{"must be between 1 and 65535, inclusive"});
  CHECK(is_valid_port_num(65536) == Messages{"must be between 1 and 65535, inclusive"});
  CHECK(is_valid_port_num(-1) == Messages{"must be between 1 and 65535, inclusive"});
}

TEST_CASE("IsValidPortName: IANA service names") {
  for (const char* v : {"telnet", "re-mail-ck", "pop3", "a", "a-1", "1-a", "a-1-b-2-c", "1-a-2-b-3"}) {
    CHECK_MESSAGE(is_valid_port_name(v).empty(), v);
  }
  CHECK(is_valid_port_name("longerthan15characters") == Messages{"must be no more than 15 characters"});
  CHECK(is_valid_port_name("") == Messages{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)",
                                           "must contain at least one letter (a-z)"});
  CHECK(is_valid_port_name("12345") == Messages{"must contain at least one letter (a-z)"});
  CHECK(is_valid_port_name("Http") ==
        Messages{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)"});
  CHECK(is_valid_port_name("a--b") == Messages{"must not contain consecutive hyphens"});
  CHECK(is_valid_port_name("-a") == Messages{"must not begin or end with a hyphen"});
  CHECK(is_valid_port_name("a-") == Messages{"must not begin or end with a hyphen"});
}

TEST_CASE("IsRelaxedEnvVarName: printable ASCII but '='") {
  for (const char* v : {"A", "my.env-name", "1st", "a b", "~!@#$%^&*()"})
    CHECK_MESSAGE(is_relaxed_env_var_name(v).empty(), v);
  const std::string bad =
      "a valid environment variable name must consist only of printable ASCII characters other than '='";
  CHECK(is_relaxed_env_var_name("") == Messages{"environment variable name must be non-empty"});
  CHECK(is_relaxed_env_var_name("a=b") == Messages{bad});
  CHECK(is_relaxed_env_var_name("tab\t") == Messages{bad});
  CHECK(is_relaxed_env_var_name("caf\xc3\xa9") == Messages{bad});
}

TEST_CASE("IsConfigMapKey: charset, length, no '..' prefix") {
  for (const char* v : {"a", "KEY_NAME", "key.name", "key-name", ".dotfile", "a..b"}) {
    CHECK_MESSAGE(is_config_map_key(v).empty(), v);
  }
  const std::string charset =
      "a valid config key must consist of alphanumeric characters, '-', '_' or '.' (e.g. 'key.name',  or 'KEY_NAME',  "
      "or 'key-name', regex used for validation is '[-._a-zA-Z0-9]+')";
  CHECK(is_config_map_key("") == Messages{charset});
  CHECK(is_config_map_key("a/b") == Messages{charset});
  CHECK(is_config_map_key(".") == Messages{"must not be '.'"});
  CHECK(is_config_map_key("..") == Messages{"must not be '..'"});
  CHECK(is_config_map_key("..a") == Messages{"must not start with '..'"});
  CHECK(is_config_map_key(std::string(254, 'a')) == Messages{"must be no more than 253 characters"});
}
