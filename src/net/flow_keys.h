// The keys of a [[flow]], declared once beside the flow they describe (flow_spec.h): the loader
// and the key reference read these rows; resolved.toml, which writes millions of flows, keeps
// its own order (the id first).
#pragma once

#include <span>

#include "core/key_row.h"
#include "net/flow_spec.h"

namespace dcqcn {

std::span<const KeyRow<FlowSpec>> FlowKeys();

}  // namespace dcqcn
