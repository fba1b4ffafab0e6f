// libFuzzer entry point; CMake compiles it once per target with DCQCN_FUZZ_TARGET set to one of
// scenario, hpcc_config, hpcc_files, cdf. A defect prints its description and aborts, which
// libFuzzer reports as a crash and saves the input.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "fuzz/fuzz_targets.h"

#define DCQCN_STR2(x) #x
#define DCQCN_STR(x) DCQCN_STR2(x)

namespace {

std::string Run(std::string_view data) {
  using namespace dcqcn::fuzz;
  const std::string_view target = DCQCN_STR(DCQCN_FUZZ_TARGET);
  if (target == "scenario") return ScenarioTarget(data);
  if (target == "hpcc_config") {
    static const std::string workdir = PrepareHpccWorkdir(DCQCN_SOURCE_DIR);
    return HpccConfigTarget(data, workdir);
  }
  if (target == "hpcc_files") return HpccFilesTarget(data);
  return CdfTarget(data);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string defect = Run({reinterpret_cast<const char*>(data), size});
  if (!defect.empty()) {
    std::fprintf(stderr, "DEFECT: %s\n", defect.c_str());
    std::abort();
  }
  return 0;
}
