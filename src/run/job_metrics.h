// A training job's metrics ([[job]], workload/job.h), from its flows' outcomes: when each compute
// task ran (replayed exactly from the completions it waited for, as the dependency tracker ran
// it), and per rank and iteration the compute, the communication its compute stream waited for
// (exposed), by group, and the pipeline bubble; per collective its time, algbw and busbw.
//
// A rank's time is its compute stream's: each compute task and the idle time before it, which is
// charged to what the task waited for last (a TP, DP, EP or DP_EP collective's flows: exposed
// communication of that group; a pipeline transfer: exposed PP communication for the part after
// the transfer started, bubble before). A rank's iteration runs from the end of its previous one
// to when everything it left running (its weight gradients) is done as it sees it, or when its
// next iteration starts computing if that is earlier, never before its last compute; the time
// after its last compute is exposed communication of what ended last. So each rank's iteration
// is exactly its compute, exposed communication and bubble. The job's iteration ends when its
// last rank's does; a last pipeline stage's drain shows as bubble at its next iteration's start.
#pragma once

#include <array>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "net/network.h"
#include "scenario/scenario.h"

namespace dcqcn {

struct JobRankIteration {
  Time start = 0;
  Time end = -1;  // -1: not finished
  Time compute = 0;
  std::array<Time, 4> exposed{};  // by JobGroup
  Time exposed_pp = 0;
  Time bubble = 0;
  bool finished() const { return end >= 0; }
};

struct JobCollectiveOutcome {
  Time start = kTimeNever;  // the first start of its flows
  Time end = -1;            // the last delivery (-1: not all delivered)
  bool finished() const { return end >= 0; }
};

struct JobOutcome {
  // Per iteration: when its last rank finished it (-1: some did not).
  std::vector<Time> iteration_end;
  std::vector<std::vector<JobRankIteration>> ranks;  // [iteration][rank]
  std::vector<JobCollectiveOutcome> collectives;     // as JobFlows::collectives
  // Per task (JobFlows::tasks): when it completed (-1: it did not).
  std::vector<Time> task_done;
};

std::vector<JobOutcome> JobOutcomes(const Scenario& s, const Network& net);
// summary.json's "jobs": per job its parallelism, per iteration the time and the mean over ranks
// of compute, exposed communication by group and bubble, and its collectives' busbw by group.
nlohmann::json JobsJson(const Scenario& s, const std::vector<JobOutcome>& outcomes);
// jobs.csv: one row per job, iteration and rank.
std::string JobsCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes);
// job_collectives.csv: one row per collective (and pipeline transfer) of every job.
std::string JobCollectivesCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes);
// job_timeline.csv: one row per compute task that ran (job, iteration, rank, host, stage,
// micro-batch, layer, phase, start and end): what a timeline of an iteration per rank draws;
// the gaps between a rank's tasks are its exposed communication and bubble.
std::string JobTimelineCsv(const Scenario& s, const std::vector<JobOutcome>& outcomes);

}  // namespace dcqcn
