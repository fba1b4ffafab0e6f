// Atomic file writes.
#include "output/atomic_file.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

namespace dcqcn {

void WriteFileAtomic(const std::string& path, const std::string& content) {
  std::filesystem::path p(path);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  auto fail = [&](const std::string& file, int err) {
    throw std::runtime_error("cannot write " + file + ": " + std::strerror(err));
  };
  // An unpredictable name created exclusively (mkstemp: O_CREAT | O_EXCL), so that a file or
  // symlink planted under the name is never written through.
  std::string tmp = path + ".tmp.XXXXXX";
  const int fd = mkstemp(tmp.data());
  if (fd < 0) fail(path, errno);
  size_t done = 0;
  int err = 0;
  while (done < content.size()) {
    const ssize_t n = write(fd, content.data() + done, content.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      err = errno;  // e.g. ENOSPC: the disk is full
      break;
    }
    done += static_cast<size_t>(n);
  }
  if (err == 0 && fchmod(fd, 0644) != 0) err = errno;  // mkstemp creates 0600
  if (close(fd) != 0 && err == 0) err = errno;
  if (err == 0 && std::rename(tmp.c_str(), path.c_str()) != 0) err = errno;
  if (err != 0) {
    std::remove(tmp.c_str());
    fail(path, err);
  }
}

}  // namespace dcqcn
