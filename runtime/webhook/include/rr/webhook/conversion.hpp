// Conversion<Hub>: a CRD's conversion webhook over typed versions, through a hub (kubebuilder's
// Hub/Convertible). Every served version other than the hub is a spoke with two functions, to the
// hub and from it; an object converts from any version to any other through the hub.
//
//   rr::webhook::Conversion<v1::Widget> conversion;
//   conversion.spoke<v1alpha1::Widget>(
//       [](const v1alpha1::Widget& from, v1::Widget& hub) -> rr::Error { ...; return {}; },
//       [](const v1::Widget& hub, v1alpha1::Widget& to) -> rr::Error { ...; return {}; });
//   server.handle_conversion("/convert", conversion.handler());
//
// The target's metadata is the source's before a function runs (a function may change it).
//
// Lossless: converting down, when the spoke cannot hold all of the hub (converting it back up
// would give another hub), the hub's JSON without its metadata is kept on the spoke in the
// annotation rrgen.dev/conversion-data. Converting up, the annotation is read and removed, and
// every member the function's hub lacks is filled from it (objects member by member), so fields
// a spoke cannot express survive a round trip through it while those it can express keep the
// spoke's values.
//
// A failure (an unknown apiVersion, an object of another kind, a function's error or exception,
// an object that does not decode) fails the whole request with its message, as controller-runtime
// does.
#pragma once
#include <functional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "rr/client/client.hpp"
#include "rr/reconcilers/error.hpp"
#include "rr/reconcilers/sub_reconciler.hpp"
#include "rr/webhook/conversion_review.hpp"
#include "rr/webhook/server.hpp"

namespace rr::webhook {

inline constexpr std::string_view conversion_data_annotation = "rrgen.dev/conversion-data";

// What fails one object's conversion.
class ConversionError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

namespace conversion_detail {

// Converting up: removes the annotation from `hub` (the JSON a function made) and fills what it
// lacks from the annotation of `spoke` (the object converted). Converting down: `spoke` gets the
// annotation with `hub` (without metadata) when `round_trip` (the spoke back up) differs from it.
void restore(const Json& spoke, Json& hub);
void preserve(const Json& hub, const Json& round_trip, Json& spoke);
std::string api_version_of(const Json& object);
void check_kind(const Json& object, std::string_view kind);
// A conversion function's error, or its exception, as a ConversionError naming the direction.
void check(const Error& err, std::string_view what);

template <Object T>
T decode(const Json& object) {
  try {
    return from_object_json<T>(object);
  } catch (const std::exception& e) {
    throw ConversionError("cannot decode " + api_version_of(object) + " " + std::string(ResourceTraits<T>::kind) +
                          ": " + e.what());
  }
}

}  // namespace conversion_detail

template <Object Hub>
class Conversion {
 public:
  template <Object Spoke>
  Conversion& spoke(std::function<Error(const Spoke&, Hub&)> to_hub,
                    std::function<Error(const Hub&, Spoke&)> from_hub) {
    static_assert(ResourceTraits<Spoke>::kind == ResourceTraits<Hub>::kind,
                  "a spoke is the hub's kind at another version");
    const std::string version(ResourceTraits<Spoke>::api_version);
    if (version == ResourceTraits<Hub>::api_version || find(version) != nullptr) {
      throw std::invalid_argument("rr::webhook::Conversion: " + version + " is registered already");
    }
    Spoke_ entry;
    entry.api_version = version;
    entry.up = [to_hub](const Json& object) {
      const Spoke from = conversion_detail::decode<Spoke>(object);
      Hub hub;
      hub.metadata = from.metadata;
      conversion_detail::check(call_hook([&] { return to_hub(from, hub); }),
                               "converting " + std::string(ResourceTraits<Spoke>::api_version) + " to " +
                                   std::string(ResourceTraits<Hub>::api_version));
      Json converted = to_object_json(hub);
      conversion_detail::restore(object, converted);
      return converted;
    };
    entry.down = [to_hub, from_hub](const Json& hub_object) {
      const Hub hub = conversion_detail::decode<Hub>(hub_object);
      Spoke to;
      to.metadata = hub.metadata;
      conversion_detail::check(call_hook([&] { return from_hub(hub, to); }),
                               "converting " + std::string(ResourceTraits<Hub>::api_version) + " to " +
                                   std::string(ResourceTraits<Spoke>::api_version));
      // What converting back up would give: if it is not the hub, the hub rides along.
      Hub round_trip;
      round_trip.metadata = to.metadata;
      Json back;
      if (!call_hook([&] { return to_hub(to, round_trip); })) back = to_object_json(round_trip);
      Json converted = to_object_json(to);
      conversion_detail::preserve(to_object_json(hub), back, converted);
      return converted;
    };
    spokes_.push_back(std::move(entry));
    return *this;
  }

  // One object to `desired_api_version`; throws ConversionError.
  Json convert_object(const Json& object, std::string_view desired_api_version) const {
    conversion_detail::check_kind(object, ResourceTraits<Hub>::kind);
    const std::string from = conversion_detail::api_version_of(object);
    if (from == desired_api_version) return object;
    const Json hub = from == ResourceTraits<Hub>::api_version ? object : served(from).up(object);
    if (desired_api_version == ResourceTraits<Hub>::api_version) return hub;
    return served(desired_api_version).down(hub);
  }

  ConversionResponse convert(const ConversionRequest& request) const {
    ConversionResponse response;
    response.uid = request.uid;
    try {
      for (const Json& object : request.objects) {
        response.converted_objects.push_back(convert_object(object, request.desired_api_version));
      }
    } catch (const std::exception& e) {
      response.converted_objects.clear();
      response.failure.emplace().message = e.what();
    }
    return response;
  }

  ConversionHandler handler() const {
    return [conversion = *this](const ConversionRequest& request) { return conversion.convert(request); };
  }

  // The hub's apiVersion and the spokes', in registration order.
  std::vector<std::string> versions() const {
    std::vector<std::string> out{std::string(ResourceTraits<Hub>::api_version)};
    for (const Spoke_& s : spokes_) out.push_back(s.api_version);
    return out;
  }

 private:
  struct Spoke_ {
    std::string api_version;
    std::function<Json(const Json&)> up;    // a spoke object to the hub's JSON
    std::function<Json(const Json&)> down;  // the hub's JSON to this spoke
  };

  const Spoke_* find(std::string_view api_version) const {
    for (const Spoke_& s : spokes_) {
      if (s.api_version == api_version) return &s;
    }
    return nullptr;
  }

  const Spoke_& served(std::string_view api_version) const {
    if (const Spoke_* s = find(api_version)) return *s;
    std::string known;
    for (const std::string& v : versions()) known += (known.empty() ? "" : ", ") + v;
    throw ConversionError("cannot convert " + std::string(ResourceTraits<Hub>::kind) + " to or from apiVersion \"" +
                          std::string(api_version) + "\": the versions converted are " + known);
  }

  std::vector<Spoke_> spokes_;
};

}  // namespace rr::webhook
