// The keys of [switch], [switch.pfc], [switch.pfc.watchdog] and [switch.ecn], declared once
// beside the options they set (switch_config.h, cc/ecn_config.h): the loader, resolved.toml and
// the key reference read these rows.
#pragma once

#include <span>

#include "cc/ecn_config.h"
#include "core/key_row.h"
#include "net/switch_config.h"

namespace dcqcn {

std::span<const KeyRow<SwitchConfig>> SwitchKeys();
std::span<const KeyRow<PfcConfig>> PfcKeys();
std::span<const KeyRow<PfcWatchdogConfig>> PfcWatchdogKeys();
std::span<const KeyRow<EcnConfig>> EcnKeys();

}  // namespace dcqcn
