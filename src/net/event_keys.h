// The keys of an [[event]], declared once beside the event they describe (network_event.h): the
// loader and the key reference read these rows.
#pragma once

#include <span>

#include "core/key_row.h"
#include "net/network_event.h"

namespace dcqcn {

std::span<const KeyRow<NetworkEvent>> EventKeys();

}  // namespace dcqcn
