// The one main() of rr_http_server_tests and rr_http_server_run_tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
