// Naming moved to support/naming.hpp: the spec reader uses it, and the loader must not include
// the model. Kept only for sema/sema.cpp and backends/types/emit_types.cpp, which are being
// reworked elsewhere; delete once they include support/naming.hpp.
#pragma once
#include "support/naming.hpp"
