// SimAI's result file, ncclFlowModel_EndToEnd.csv, from a job run as SimAI runs it
// (workload/simai_job.h): astra-sim's Layer::report as its ns-3 build writes it, rank 0's view,
// every time in microseconds, bandwidths in GiB/s. Per layer: its compute per phase; per
// collective rank 0 took part in, its time from when rank 0 issued it to when rank 0's part was
// done (all it sent acknowledged, all it receives seen) plus the layer's update time; exposed:
// the whole of a blocking (forward, input-gradient) collective, and of the weight gradients
// only layer 0's, from rank 0's last compute to its end (SimAI charges nothing else: its one
// pass never waits for the others); algbw = size / time, busbw by nccl-tests' factor over the
// group (TP, or DP = all_gpus / (TP x pp)). Then SimAI's SUM row and its totals line (exposed =
// rank 0's end - its compute), preceded by the summary newer SimAI versions put first (exposed
// DP, DP_EP, TP, EP, PP, bubble, compute, exposed and total, rounded to whole microseconds with
// their share of the total). What SimAI adds that we leave out: its +1 ns per state change (a
// few ns per layer).
#pragma once

#include <string>

#include "net/network.h"
#include "run/job_metrics.h"
#include "scenario/scenario.h"
#include "workload/simai_workload.h"

namespace dcqcn {

// The file's text for job `job` of `s` (run on `net`, its outcome `o`), whose workload was `w`.
std::string SimaiEndToEndCsv(const Scenario& s, const Network& net, size_t job, const JobOutcome& o,
                             const SimaiWorkload& w);

}  // namespace dcqcn
