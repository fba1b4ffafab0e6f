// The one worker pool of the run layer: sweeps run their runs on it, fluid maps their cells.
#pragma once

#include <cstddef>
#include <functional>

namespace dcqcn {

// Calls work(i) for every i in [0, n), on `jobs` threads (this one among them), handing the
// indices out in order. Once a call returns false no further index is handed out; returns
// false then. jobs < 1 means 1. `work` must not throw (catch and record instead).
bool ParallelFor(size_t n, int jobs, const std::function<bool(size_t)>& work);

}  // namespace dcqcn
