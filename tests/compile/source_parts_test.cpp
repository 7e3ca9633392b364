// A unit whose source rrgen wrote in three parts (SOURCE_PART_LINES 150), compiled in three shards
// (SHARDS 3): the codec, defaults, validation (CEL rule and pattern), list-map lookup and the
// kind table work across the parts as they do in one source. The types come from the golden
// case source_parts, whose expected/ pins which struct is in which part.
#include <doctest/doctest.h>

#include <string>
#include <string_view>
#include <vector>

#include "rr/core/codec.hpp"
#include "source_parts_types.hpp"

using parts::v1::Pipeline;

namespace {

// Touches a struct of every part: stages (part 1), notify (part 2), status (part 3).
constexpr std::string_view kPipeline =
    R"({"apiVersion":"golden.rrgen.dev/v1","kind":"Pipeline","metadata":{"name":"p"},"spec":{"mode":"Serial",)"
    R"("stages":[{"name":"build","retry":{"limit":2,"backoff":"5s"},"resources":{"cpu":2}},{"name":"test"}],)"
    R"("notify":{"webhook":{"url":"https://hook","headers":{"X-A":"1"}}}},)"
    R"("status":{"phase":"Running","stageStatuses":[{"name":"build","startedAt":"2026-11-26T10:00:00Z"}]}})";

std::vector<std::string> messages(const std::vector<rr::FieldError>& errors) {
  std::vector<std::string> out;
  for (const auto& e : errors) out.push_back(e.path + ": " + e.message);
  return out;
}

}  // namespace

TEST_CASE("a unit compiled in parts decodes, defaults, validates and round-trips as one") {
  Pipeline p = Pipeline::from_json_text(kPipeline);
  REQUIRE(p.spec.has_value());
  REQUIRE(p.spec->stages.size() == 2);
  CHECK(p.spec->stages[0].retry->limit == 2);
  CHECK(p.spec->notify->webhook->headers->at("X-A") == "1");
  CHECK(p.status->stage_statuses->at(0).started_at->str() == "2026-11-26T10:00:00Z");
  CHECK(Pipeline::from_json_text(p.to_json_text()) == p);

  const auto* test = p.spec->find_stages("test");
  REQUIRE(test != nullptr);
  CHECK_FALSE(test->image.has_value());
  p.apply_defaults();
  CHECK(p.spec->find_stages("test")->image == std::string("busybox"));
  CHECK(p.validate().empty());

  p.spec->stages[0].retry->backoff = "soon";  // the pattern, checked in part 1
  const auto bad = messages(p.validate());
  REQUIRE(bad.size() == 1);
  CHECK(bad[0].find("spec.stages[0].retry.backoff") != std::string::npos);

  p.spec->stages[0].retry->backoff = "5s";
  p.spec->stages.resize(11);  // the root's CEL rule, defined in the last part
  for (std::size_t i = 0; i < p.spec->stages.size(); ++i) p.spec->stages[i].name = "s" + std::to_string(i);
  const auto too_many = messages(p.validate());
  REQUIRE(too_many.size() == 1);
  CHECK(too_many[0].find("at most ten stages") != std::string::npos);
}

TEST_CASE("the kind table of a sharded aggregate holds the kind once, from the shard of its first part") {
  const auto kinds = source_parts_types_kinds();
  REQUIRE(kinds.size() == 1);
  CHECK(kinds[0].api_version == "golden.rrgen.dev/v1");
  CHECK(kinds[0].kind == "Pipeline");
  CHECK(kinds[0].reencode(kPipeline) == rr::encode_text(Pipeline::from_json_text(kPipeline)));
}
