// The rank protocol. Rank 0 -> rank r: kStart (the folder, or "" to cancel) once, then kWork (a
// run's index, or "" for no more) after each of r's kRequest. Rank r -> rank 0: kRequest, empty
// the first time, then the result of the run it was given ("R<i>\n<bytes>", or "I<i>" when
// interrupted).
#include "run/sweep_ranks.h"

#include <cstdlib>
#include <mutex>
#include <thread>

namespace dcqcn {
namespace {

constexpr int kStart = 1;
constexpr int kRequest = 2;
constexpr int kWork = 3;

}  // namespace

void CancelRanks(MpiWorld& world) {
  if (world.released()) return;  // they have their work, or are done
  for (int r = 1; r < world.size(); ++r) world.Send(r, kStart, "");
  world.ReleasedRanks();
}

bool CoordinateRuns(MpiWorld& world, const std::string& folder, const std::vector<size_t>& todo,
                    const RunOnRank& run,
                    const std::function<void(size_t, std::string, int)>& done) {
  for (int r = 1; r < world.size(); ++r) world.Send(r, kStart, folder);
  std::mutex mutex;  // guards the next two and every call of `done`
  size_t next = 0;
  bool interrupted = false;
  auto take = [&]() -> std::optional<size_t> {
    std::lock_guard<std::mutex> lock(mutex);
    if (interrupted || next == todo.size()) return std::nullopt;
    return todo[next++];
  };
  // Rank 0's own share, on a thread: only this one talks to MPI.
  std::thread local([&] {
    while (const std::optional<size_t> i = take()) {
      std::optional<std::string> result = run(*i, folder);
      std::lock_guard<std::mutex> lock(mutex);
      if (!result) {
        interrupted = true;
        return;
      }
      done(*i, std::move(*result), 0);
    }
  });
  for (int serving = world.size() - 1; serving > 0;) {
    auto [rank, report] = world.Receive(-1, kRequest);
    if (!report.empty()) {
      char* end = nullptr;  // after the index: "\n" and the result, if any
      const size_t i = std::strtoul(report.c_str() + 1, &end, 10);
      std::lock_guard<std::mutex> lock(mutex);
      if (report[0] == 'I') {
        interrupted = true;
      } else {
        done(i, report.substr(static_cast<size_t>(end - report.c_str()) + 1), rank);
      }
    }
    const std::optional<size_t> i = take();
    world.Send(rank, kWork, i ? std::to_string(*i) : std::string());
    if (!i) --serving;
  }
  local.join();
  world.ReleasedRanks();
  return !interrupted;
}

int ServeRuns(MpiWorld& world, const RunOnRank& run) {
  const std::string folder = world.Receive(0, kStart).second;
  if (folder.empty()) return 1;
  std::string report;
  for (;;) {
    world.Send(0, kRequest, report);
    const std::string work = world.Receive(0, kWork).second;
    if (work.empty()) return 0;
    const size_t i = std::stoul(work);
    const std::optional<std::string> result = run(i, folder);
    report = result ? "R" + work + "\n" + *result : "I" + work;
  }
}

}  // namespace dcqcn
