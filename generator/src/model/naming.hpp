// Naming moved to support/naming.hpp (the spec reader needs it, and load/ must not include model/).
// Kept only for sema/sema.cpp and backends/types/emit_types.cpp, which are being reworked
// elsewhere; delete once they include support/naming.hpp.
#pragma once
#include "support/naming.hpp"
