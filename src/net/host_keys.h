// The keys of [host], declared once beside the NIC's options (host_config.h): the loader,
// resolved.toml and the key reference read these rows.
#pragma once

#include <span>

#include "core/key_row.h"
#include "net/host_config.h"

namespace dcqcn {

std::span<const KeyRow<HostConfig>> HostKeys();

}  // namespace dcqcn
