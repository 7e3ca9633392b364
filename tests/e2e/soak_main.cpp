// doctest's main for the soak test (rr_e2e_soak).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
