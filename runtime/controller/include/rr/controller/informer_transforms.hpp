// Transforms an informer applies to every object before it stores and delivers it
// (client-go's SetTransform, controller-runtime's cache.Options.DefaultTransform / ByObject
// Transform): what is dropped here costs no memory in the cache and no work in the handlers.
#pragma once
#include <functional>

#include "rr/core/json.hpp"

namespace rr {

// Edits an object in place. Must keep apiVersion, kind, metadata.name/namespace/uid and
// resourceVersion (the store and the events need them).
using ObjectTransform = std::function<void(Json& object)>;

// Drops metadata.managedFields (controller-runtime's cache.TransformStripManagedFields).
void strip_managed_fields(Json& object);
// Drops the kubectl.kubernetes.io/last-applied-configuration annotation (a copy of the object as
// last applied: often as large as the object).
void strip_last_applied_configuration(Json& object);
// Both of the above.
void strip_bookkeeping(Json& object);
// Keeps only apiVersion, kind and metadata (a PartialObjectMetadata of the object). The list and
// watch still carry whole objects; InformerOptions::metadata_only asks the server for metadata only.
void keep_metadata_only(Json& object);

}  // namespace rr
