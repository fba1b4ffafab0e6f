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
  if (size_ > 1 && !released_ && (rank_ == 0 || abort_unless_released_)) {
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

std::vector<std::string> MpiWorld::AllToAll(const std::vector<std::string>& out) {
  const auto n = static_cast<size_t>(size_);
  std::vector<int> send_counts(n), send_offsets(n), receive_counts(n), receive_offsets(n);
  std::string sent;
  for (size_t r = 0; r < n; ++r) {
    send_offsets[r] = static_cast<int>(sent.size());
    send_counts[r] = static_cast<int>(out[r].size());
    sent += out[r];
  }
  MPI_Alltoall(send_counts.data(), 1, MPI_INT, receive_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (size_t r = 0; r < n; ++r) {
    receive_offsets[r] = total;
    total += receive_counts[r];
  }
  std::string received(static_cast<size_t>(total), '\0');
  MPI_Alltoallv(sent.data(), send_counts.data(), send_offsets.data(), MPI_CHAR, received.data(),
                receive_counts.data(), receive_offsets.data(), MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> in(n);
  for (size_t r = 0; r < n; ++r) {
    in[r] = received.substr(static_cast<size_t>(receive_offsets[r]),
                            static_cast<size_t>(receive_counts[r]));
  }
  return in;
}

std::vector<std::vector<int64_t>> MpiWorld::AllGather(const std::vector<int64_t>& mine) {
  const auto n = static_cast<size_t>(size_);
  std::vector<int64_t> all(n * mine.size());
  MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, all.data(),
                static_cast<int>(mine.size()), MPI_INT64_T, MPI_COMM_WORLD);
  std::vector<std::vector<int64_t>> by_rank(n);
  for (size_t r = 0; r < n; ++r) {
    by_rank[r].assign(all.begin() + static_cast<std::ptrdiff_t>(r * mine.size()),
                      all.begin() + static_cast<std::ptrdiff_t>((r + 1) * mine.size()));
  }
  return by_rank;
}

#else

MpiWorld::MpiWorld() {
  throw InputError(
      "an MPI launcher started this process, but this dcqcn was built without MPI (install "
      "libopenmpi-dev and openmpi-bin, which scripts/setup.sh does, and rebuild); each process "
      "would do the whole sweep or run alone");
}
MpiWorld::~MpiWorld() = default;
void MpiWorld::Send(int, int, const std::string&) {}
std::pair<int, std::string> MpiWorld::Receive(int, int) { return {}; }
std::vector<std::string> MpiWorld::AllToAll(const std::vector<std::string>& out) { return out; }
std::vector<std::vector<int64_t>> MpiWorld::AllGather(const std::vector<int64_t>& mine) {
  return {mine};
}

#endif

}  // namespace dcqcn
