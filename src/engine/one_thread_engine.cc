#include "engine/one_thread_engine.h"

#include "core/error.h"

namespace dcqcn {

OneThreadEngine::OneThreadEngine(Network& net) : Engine(net), sim_(net.parts()[0]->sim) {
  if (net.parts().size() != 1) throw InvariantError("OneThreadEngine: a network of several parts");
  // Finished flows retire as new ones start (Network::StartFlow).
  net.SetRetireAtStart(true);
}

}  // namespace dcqcn
