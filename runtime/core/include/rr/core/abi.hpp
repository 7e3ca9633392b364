// The contract version between generated code and this runtime. Generated headers static_assert
// it, so code generated for another runtime fails to compile with a clear message instead of
// misbehaving. Bump on any change to the codec, validator or value-type interfaces.
#pragma once
#define RR_CORE_ABI_VERSION 1
