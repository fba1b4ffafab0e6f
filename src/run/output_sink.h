// One output of a run: a sink may watch the network while the run goes (taps, sampling events),
// adds what it measured to RunInfo and summary.json, and writes its files into the run's folder.
// RunScenario walks its sinks in order at each step; a new output is one sink (run/sinks.cc)
// plus its options (output/output_config.h).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "engine/engine.h"
#include "net/network.h"
#include "run/results.h"
#include "scenario/scenario.h"

namespace dcqcn {

class OutputSink {
 public:
  virtual ~OutputSink() = default;
  // The network is built and nothing has run yet: attach taps, schedule sampling (on the
  // engine that will run it). `dir` is the run's (staged) folder, "" when the run writes no
  // files.
  virtual void Start(Engine& engine, const std::string& dir) {}
  // The run ended. Over ranks (RunOptions::ranks), every rank's sink brings what it measured
  // of the nodes and flows its rank ran to rank 0's (collective); the others stop here.
  virtual void Collect() {}
  // The run ended: fill in what the summary needs of this sink's measurements.
  virtual void Finish(RunInfo& info) {}
  // Add to summary.json (after the run's own fields).
  virtual void Summarize(nlohmann::json& summary) {}
  // Write this sink's files into `dir` (called only when the run has a folder).
  virtual void Write(const Network& net, const RunInfo& info, const nlohmann::json& summary,
                     const std::string& dir) {}
};

}  // namespace dcqcn
