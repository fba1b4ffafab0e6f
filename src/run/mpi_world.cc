// MPI, when built with it (DCQCN_HAVE_MPI).
#include "run/mpi_world.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdlib>
#include <thread>

#include "core/error.h"

#ifdef DCQCN_HAVE_MPI
#include <mpi.h>
#endif

namespace dcqcn {

bool BuiltWithMpi() {
#ifdef DCQCN_HAVE_MPI
  return true;
#else
  return false;
#endif
}

bool LaunchedByMpi() {
  // Open MPI's mpirun, PMIx launchers (Open MPI 5, Slurm's srun --mpi=pmix) and PMI-1/2
  // launchers (MPICH's mpiexec, srun --mpi=pmi2).
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMIX_RANK", "PMI_SIZE"}) {
    if (std::getenv(var) != nullptr) return true;
  }
  return false;
}

std::unique_ptr<MpiWorld> JoinMpiIfLaunched() {
  if (!LaunchedByMpi()) return nullptr;
  if (BuiltWithMpi()) return std::make_unique<MpiWorld>();
  for (const char* var : {"OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "SLURM_NTASKS"}) {
    const char* size = std::getenv(var);
    if (size != nullptr && std::atoi(size) > 1) return std::make_unique<MpiWorld>();  // throws
  }
  return nullptr;
}

#ifdef DCQCN_HAVE_MPI

MpiWorld::MpiWorld() {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &size_);
}

MpiWorld::~MpiWorld() {
  if (rank_ == 0 && size_ > 1 && !released_) {
    MPI_Abort(MPI_COMM_WORLD, 1);
  } else {
    MPI_Finalize();
  }
}

void MpiWorld::Send(int to, int tag, const std::string& bytes) {
  MPI_Send(bytes.data(), static_cast<int>(bytes.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

std::pair<int, std::string> MpiWorld::Receive(int from, int tag) {
  const int source = from < 0 ? MPI_ANY_SOURCE : from;
  MPI_Status status;
  for (int flag = 0;;) {
    MPI_Iprobe(source, tag, MPI_COMM_WORLD, &flag, &status);
    if (flag) break;
    std::this_thread::sleep_for(std::chrono::microseconds(500));
  }
  int count = 0;
  MPI_Get_count(&status, MPI_CHAR, &count);
  std::string bytes(static_cast<size_t>(count), '\0');
  MPI_Recv(bytes.data(), count, MPI_CHAR, status.MPI_SOURCE, tag, MPI_COMM_WORLD,
           MPI_STATUS_IGNORE);
  return {status.MPI_SOURCE, std::move(bytes)};
}

#else

MpiWorld::MpiWorld() {
  throw InputError(
      "an MPI launcher started this process, but this dcqcn was built without MPI (install "
      "libopenmpi-dev and openmpi-bin, which scripts/setup.sh does, and rebuild); each process "
      "would run the whole sweep");
}
MpiWorld::~MpiWorld() = default;
void MpiWorld::Send(int, int, const std::string&) {}
std::pair<int, std::string> MpiWorld::Receive(int, int) { return {}; }

#endif

}  // namespace dcqcn
