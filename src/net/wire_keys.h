// The keys of [wire], declared once beside the frame format they set (headers.h's WireFormat):
// the loader, resolved.toml and the key reference read these rows.
#pragma once

#include <span>

#include "core/key_row.h"
#include "net/headers.h"

namespace dcqcn {

std::span<const KeyRow<WireFormat>> WireKeys();

}  // namespace dcqcn
