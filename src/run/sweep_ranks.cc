// The rank protocol. Rank 0 -> rank r: kStart (the folder, or "" to cancel) once, then kWork (a
// run's index, or "" for no more) after each of r's kRequest. Rank r -> rank 0: kRequest, empty
// the first time, then the result of the run it was given ("R<i>\n<bytes>", or "I<i>" when
// interrupted).
#include "run/sweep_ranks.h"

#include <cstdlib>
#include <mutex>
#include <thread>

#include "run/parallel_for.h"

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
  // Rank 0's threads and the other ranks draw from one queue of `todo`'s places.
  WorkQueue queue(todo.size());
  std::mutex mutex;  // guards every call of `done`
  // Rank 0's own share, on a thread: only this one talks to MPI.
  std::thread local([&] {
    Drain(queue, [&](size_t k) {
      std::optional<std::string> result = run(todo[k], folder);
      if (!result) return false;
      std::lock_guard<std::mutex> lock(mutex);
      done(todo[k], std::move(*result), 0);
      return true;
    });
  });
  for (int serving = world.size() - 1; serving > 0;) {
    auto [rank, report] = world.Receive(-1, kRequest);
    if (!report.empty()) {
      char* end = nullptr;  // after the index: "\n" and the result, if any
      const size_t i = std::strtoul(report.c_str() + 1, &end, 10);
      if (report[0] == 'I') {
        queue.Stop();
      } else {
        std::lock_guard<std::mutex> lock(mutex);
        done(i, report.substr(static_cast<size_t>(end - report.c_str()) + 1), rank);
      }
    }
    const std::optional<size_t> k = queue.Next();
    world.Send(rank, kWork, k ? std::to_string(todo[*k]) : std::string());
    if (!k) --serving;
  }
  local.join();
  world.ReleasedRanks();
  return !queue.stopped();
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
