// The one main() of rr_wire_order_tests and rr_wire_order_fixture_tests.
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
