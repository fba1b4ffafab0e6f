// The keys of [output] and [output.pcap], declared once beside the options they set
// (output_config.h): the loader, resolved.toml and the key reference read these rows.
#pragma once

#include <span>

#include "core/key_row.h"
#include "output/output_config.h"

namespace dcqcn {

std::span<const KeyRow<OutputConfig>> OutputKeys();
std::span<const KeyRow<PcapConfig>> PcapKeys();

}  // namespace dcqcn
