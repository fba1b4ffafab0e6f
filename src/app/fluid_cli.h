// `dcqcn fluid`'s command line: its options, bound to a FluidCommandOptions (run/fluid_driver.h).
#pragma once

#include <CLI/CLI.hpp>

#include "run/fluid_driver.h"

namespace dcqcn {

// Registers the subcommand and its options (bound to `options`) on `app`.
CLI::App* AddFluidCommand(CLI::App& app, FluidCommandOptions& options);

}  // namespace dcqcn
