// `dcqcn sweep`: run one scenario over the cartesian product of parameter values and collect
// one table (sweep.csv) of the headline numbers of every run.
#pragma once

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace dcqcn {

class MpiWorld;

struct SweepOptions {
  std::string scenario;           // file; empty = the built-in default scenario
  std::vector<std::string> vary;  // "dotted.key=v1,v2,..." (values are TOML text)
  std::vector<std::string> sets;  // fixed overrides applied to every run
  // > 0: repeat every point with seed = 1..seeds (the last axis); sweep_mean.csv then gives each
  // metric's mean over the seeds and its 95% confidence interval, as it does for --vary seed=...
  int seeds = 0;
  std::string out_dir;  // default results/<scenario name>-sweep/
  int jobs = 1;         // runs in parallel
  // Threads each run is split over (RunOptions::threads); 0: automatic, AutoThreads shared by
  // the `jobs` runs in parallel.
  int threads = 0;
  bool quiet = false;
  // Where its messages go (the run layer never prints): `say` gets the closing line of a sweep
  // (stdout on the command line), `note` each run's progress, resumption and failures (stderr).
  // Unset: dropped.
  std::function<void(const std::string&)> say = nullptr;
  std::function<void(const std::string&)> note = nullptr;
  bool force = false;                       // replace an --out folder that is not a result
  const std::atomic<bool>* stop = nullptr;  // set by a signal handler: stop, write nothing
  // "K/N": run only shard K of N, the runs whose index i has i % N == K - 1 (empty: all). The
  // folder then holds those runs and their rows of sweep.csv, which `sweep merge` joins into the
  // folder an unsharded sweep writes.
  std::string shard;
  // The sweep is built in OUT.unfinished, where finished runs stay when it is interrupted or
  // killed; with `resume` the same sweep goes on from there, running only the other runs.
  bool resume = false;
  // Set under an MPI launcher (one process per rank): rank 0 hands the runs out, every rank runs
  // them (run/sweep_ranks.h). Null: this process runs them all, on `jobs` threads.
  MpiWorld* world = nullptr;
};

// What a sweep (or this shard of it) came to: its runs, and how many failed (their error is in
// sweep.csv's error column), one of them by a broken invariant. The command line maps it to an
// exit code (app/exit_codes.h).
struct SweepResult {
  size_t runs = 0;
  size_t failed = 0;
  bool invariant_broken = false;
  bool cancelled = false;  // under mpirun, a rank > 0 whose sweep rank 0 cancelled (bad input)
};

// Throws InputError for bad input.
SweepResult RunSweepCommand(const SweepOptions& options);

struct SweepMergeOptions {
  std::string out_dir;
  std::vector<std::string> shard_dirs;  // the folders of `sweep --shard K/N`, all N of them
  bool quiet = false;
  std::function<void(const std::string&)> say = nullptr;  // as SweepOptions::say and note
  std::function<void(const std::string&)> note = nullptr;
  bool force = false;
};

// `dcqcn sweep merge OUT DIR...`: the shards of one sweep as one sweep folder, with the same
// sweep.csv and runs/ as the sweep run whole, with the result the whole sweep would have.
SweepResult RunSweepMergeCommand(const SweepMergeOptions& options);

// The headline columns of sweep.csv, in order: paths into summary.json.
std::vector<std::string> SweepColumns();
// sweep.csv's columns per collective, collective.<tag>.<path>: paths into its summary entry.
std::vector<std::string> SweepCollectiveColumns();
// The per-tag columns: for every tag, "tag.<tag>.<path>" with these paths into by_tag.<tag>.
std::vector<std::string> SweepTagColumns();

}  // namespace dcqcn
