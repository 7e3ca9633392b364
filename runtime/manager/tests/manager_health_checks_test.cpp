// /healthz and /readyz bodies and codes, as controller-runtime's pkg/healthz writes them.
#include <doctest/doctest.h>

#include <atomic>
#include <stdexcept>
#include <string>

#include "rr/manager/health_checks.hpp"

TEST_CASE("no checks: the default ping passes") {
  const rr::HealthChecks checks;
  const auto plain = checks.serve("", false, {});
  CHECK(plain.status == 200);
  CHECK(plain.body == "ok");
  CHECK(plain.content_type == "text/plain; charset=utf-8");
  const auto verbose = checks.serve("/", true, {});
  CHECK(verbose.status == 200);
  CHECK(verbose.body == "[+]ping ok\nhealthz check passed\n");
  CHECK(checks.serve("/ping", false, {}).body == "ok");
  CHECK(checks.serve("/nope", false, {}).status == 404);
}

TEST_CASE("aggregate: ok, verbose listing, failures withheld, sorted by name") {
  rr::HealthChecks checks;
  std::atomic<bool> cache_synced{false};
  checks.add("ping", [] { return true; });
  checks.add("cache", [&] { return cache_synced.load(); });
  checks.add("throws", [&]() -> bool {
    if (!cache_synced) throw std::runtime_error("no");
    return true;
  });

  const auto failing = checks.serve("", false, {});
  CHECK(failing.status == 500);
  CHECK(failing.body == "[-]cache failed: reason withheld\n[+]ping ok\n[-]throws failed: reason withheld\nhealthz check failed\n");

  cache_synced = true;
  const auto ok = checks.serve("", false, {});
  CHECK(ok.status == 200);
  CHECK(ok.body == "ok");
  const auto verbose = checks.serve("", true, {});
  CHECK(verbose.status == 200);
  CHECK(verbose.body == "[+]cache ok\n[+]ping ok\n[+]throws ok\nhealthz check passed\n");
}

TEST_CASE("exclude skips a check and warns about unknown names") {
  rr::HealthChecks checks;
  checks.add("ping", [] { return true; });
  checks.add("broken", [] { return false; });
  const auto excluded = checks.serve("", false, {"broken"});
  CHECK(excluded.status == 200);
  CHECK(excluded.body == "ok");
  const auto verbose = checks.serve("", true, {"broken", "zeta", "alpha"});
  CHECK(verbose.status == 200);
  CHECK(verbose.body ==
        "[+]broken excluded: ok\n[+]ping ok\n"
        "warn: some health checks cannot be excluded: no matches for \"alpha\", \"zeta\"\n"
        "healthz check passed\n");
}

TEST_CASE("a single check by name") {
  rr::HealthChecks checks;
  checks.add("ping", [] { return true; });
  checks.add("broken", [] { return false; });
  CHECK(checks.serve("/ping", false, {}).status == 200);
  CHECK(checks.serve("/ping/", false, {}).body == "ok");
  const auto broken = checks.serve("/broken", false, {});
  CHECK(broken.status == 500);
  CHECK(broken.body == "internal server error: broken check failed\n");
  const auto unknown = checks.serve("/other", false, {});
  CHECK(unknown.status == 404);
  CHECK(unknown.body == "404 page not found\n");
}

TEST_CASE("check names are unique, non-empty and without '/'") {
  rr::HealthChecks checks;
  checks.add("a", [] { return true; });
  CHECK_THROWS_AS(checks.add("a", [] { return true; }), std::invalid_argument);
  CHECK_THROWS_AS(checks.add("", [] { return true; }), std::invalid_argument);
  CHECK_THROWS_AS(checks.add("a/b", [] { return true; }), std::invalid_argument);
  CHECK(checks.names() == std::vector<std::string>{"a"});
}
