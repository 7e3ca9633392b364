#include <doctest/doctest.h>

#include <stdexcept>

#include "rr/node/image_reference.hpp"

using rr::node::parse_image_reference;

TEST_CASE("image references normalise as the kubelet's runtime reads them") {
  struct Row {
    const char* text;
    const char* repository;
    const char* tag;
    const char* str;
  };
  const std::string digest = "sha256:" + std::string(64, 'a');
  const Row rows[] = {
      {"busybox", "docker.io/library/busybox", "latest", "docker.io/library/busybox:latest"},
      {"busybox:1.36", "docker.io/library/busybox", "1.36", "docker.io/library/busybox:1.36"},
      {"me/app:v1", "docker.io/me/app", "v1", "docker.io/me/app:v1"},
      {"index.docker.io/library/nginx", "docker.io/library/nginx", "latest", "docker.io/library/nginx:latest"},
      {"localhost/app", "localhost/app", "latest", "localhost/app:latest"},
      {"localhost:5000/team/app:2", "localhost:5000/team/app", "2", "localhost:5000/team/app:2"},
      {"registry.k8s.io/pause:3.9", "registry.k8s.io/pause", "3.9", "registry.k8s.io/pause:3.9"},
  };
  for (const Row& row : rows) {
    CAPTURE(row.text);
    const auto ref = parse_image_reference(row.text);
    CHECK(ref.repository == row.repository);
    CHECK(ref.tag == row.tag);
    CHECK(ref.str() == row.str);
  }
  const auto by_digest = parse_image_reference("app@" + digest);
  CHECK(by_digest.repository == "docker.io/library/app");
  CHECK(by_digest.tag.empty());
  CHECK(by_digest.str() == "docker.io/library/app@" + digest);
  CHECK(parse_image_reference("app:v2@" + digest).digest == digest);
}

TEST_CASE("bad image references are refused with the reason") {
  CHECK_THROWS_WITH_AS(parse_image_reference("Busybox"), "invalid reference format: repository name must be lowercase",
                       std::invalid_argument);
  CHECK_THROWS_AS(parse_image_reference(""), std::invalid_argument);
  CHECK_THROWS_AS(parse_image_reference("app@sha256:xyz"), std::invalid_argument);
  CHECK_THROWS_AS(parse_image_reference("app:bad/tag:"), std::invalid_argument);
  CHECK_THROWS_AS(parse_image_reference("a//b"), std::invalid_argument);
}
