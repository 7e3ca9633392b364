// The one main() of rr_builtin_tests (and of rr_builtin_corpus_tests).
#define DOCTEST_CONFIG_IMPLEMENT_WITH_MAIN
#include <doctest/doctest.h>
