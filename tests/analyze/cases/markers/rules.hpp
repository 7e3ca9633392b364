// Markers in a header of the hooks: read because the parse of hooks.cpp reads this file (it is in
// the directory of an analysed file), although only hooks.cpp is given.
#pragma once

// +kubebuilder:rbac:groups=batch,resources=jobs,verbs=create
