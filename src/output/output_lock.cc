// The lock beside a result folder.
#include "output/output_lock.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.h"

namespace dcqcn {
namespace fs = std::filesystem;

std::string OutputLock::LockPath(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return (p.parent_path() / ("." + p.filename().string() + ".lock")).string();
}

OutputLock::OutputLock(const std::string& dir, const std::string& shown) : path_(LockPath(dir)) {
  // A holder removes the file as it releases it, so a lock taken on a file that is no longer
  // the one at the path guards nothing: take it again on the file that is there now.
  for (;;) {
    fd_ = open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) {
      throw InputError(fmt::format("--out {}: cannot create the lock {}: {}", shown, path_,
                                   std::strerror(errno)));
    }
    if (flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      const int error = errno;
      close(fd_);
      fd_ = -1;
      if (error == EWOULDBLOCK) {
        throw InputError(fmt::format(
            "--out {}: another dcqcn process is writing it (its lock is {}; wait for it to end, "
            "or give another --out)",
            shown, path_));
      }
      throw InputError(
          fmt::format("--out {}: cannot lock {}: {}", shown, path_, std::strerror(error)));
    }
    struct stat held {};
    struct stat there {};
    if (fstat(fd_, &held) == 0 && stat(path_.c_str(), &there) == 0 && held.st_dev == there.st_dev &&
        held.st_ino == there.st_ino) {
      return;
    }
    close(fd_);
    fd_ = -1;
  }
}

OutputLock::~OutputLock() {
  // Removed while still held, so that whoever opens the path next gets a new file.
  unlink(path_.c_str());
  close(fd_);
}

}  // namespace dcqcn
