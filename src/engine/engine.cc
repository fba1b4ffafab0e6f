// The choice of engine, and what every engine in one process reads alike.
#include "engine/engine.h"

#include <algorithm>

#include "engine/one_thread_engine.h"
#include "engine/rank_engine.h"
#include "engine/window_engine.h"

namespace dcqcn {

int Engine::flows_done() const {
  int done = 0;
  for (const auto& part : net_.parts()) done += part->flows_done;
  return done;
}

Time Engine::last_finish() const {
  Time last = 0;
  for (const auto& part : net_.parts()) last = std::max(last, part->last_finish);
  return last;
}

std::unique_ptr<Engine> MakeEngine(Network& net, RankExchange* ranks) {
  // A network of one part runs whole in every process: there is nothing to split.
  if (net.parts().size() == 1) return std::make_unique<OneThreadEngine>(net);
  if (ranks != nullptr && ranks->ranks() > 1) return std::make_unique<RankEngine>(net, ranks);
  return std::make_unique<WindowEngine>(net);
}

}  // namespace dcqcn
