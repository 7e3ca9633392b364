// rr::testing: table-driven unit tests of reconcilers (reconciler.io's testing package) over the
// in-process cluster. See docs/testing-reconcilers.md.
#pragma once
#include "rr/testing/admission_webhook_test.hpp"
#include "rr/testing/any_object.hpp"
#include "rr/testing/expect_config.hpp"
#include "rr/testing/failure.hpp"
#include "rr/testing/json_diff.hpp"
#include "rr/testing/normalize.hpp"
#include "rr/testing/reactor.hpp"
#include "rr/testing/reconciler_test.hpp"
#include "rr/testing/refs.hpp"
#include "rr/testing/registration.hpp"
#include "rr/testing/stashed_value.hpp"
#include "rr/testing/sub_reconciler_test.hpp"
#include "rr/testing/test_client.hpp"
