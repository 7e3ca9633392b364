// The error every review decoder throws on input it cannot read: what was wrong and where, e.g.
// `AdmissionReview: request.operation: "PATCH" is not one of CREATE, UPDATE, DELETE, CONNECT`.
#pragma once
#include <stdexcept>

namespace rr::webhook {

class ReviewError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace rr::webhook
