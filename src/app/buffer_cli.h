// `dcqcn buffer`'s command line: its options, bound to a BufferOptions.
#pragma once

#include <CLI/CLI.hpp>

#include "analysis/buffer_thresholds.h"

namespace dcqcn {

// Registers the subcommand and its options (bound to `options`) on `app`.
CLI::App* AddBufferCommand(CLI::App& app, BufferOptions& options);

}  // namespace dcqcn
