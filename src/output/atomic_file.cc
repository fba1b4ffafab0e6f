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
namespace {

constexpr size_t kBufferBytes = 1 << 20;

}  // namespace

AtomicFileWriter::AtomicFileWriter(std::string path) : path_(std::move(path)) {
  std::filesystem::path p(path_);
  if (p.has_parent_path()) std::filesystem::create_directories(p.parent_path());
  // An unpredictable name created exclusively (mkstemp: O_CREAT | O_EXCL), so that a file or
  // symlink planted under the name is never written through.
  tmp_ = path_ + ".tmp.XXXXXX";
  fd_ = mkstemp(tmp_.data());
  if (fd_ < 0) throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;
  close(fd_);
  std::remove(tmp_.c_str());
}

void AtomicFileWriter::Fail(int err) {
  if (fd_ >= 0) close(fd_);
  fd_ = -1;
  std::remove(tmp_.c_str());
  throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(err));
}

void AtomicFileWriter::Flush() {
  size_t done = 0;
  while (done < buffer_.size()) {
    const ssize_t n = write(fd_, buffer_.data() + done, buffer_.size() - done);
    if (n < 0) {
      if (errno == EINTR) continue;
      Fail(errno);  // e.g. ENOSPC: the disk is full
    }
    done += static_cast<size_t>(n);
  }
  buffer_.clear();
}

void AtomicFileWriter::Write(std::string_view bytes) {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter: write after commit");
  buffer_ += bytes;
  if (buffer_.size() >= kBufferBytes) Flush();
}

void AtomicFileWriter::Commit() {
  Flush();
  if (fchmod(fd_, 0644) != 0) Fail(errno);  // mkstemp creates 0600
  const int closed = close(fd_);
  fd_ = -1;
  if (closed != 0 || std::rename(tmp_.c_str(), path_.c_str()) != 0) Fail(errno);
}

void WriteFileAtomic(const std::string& path, const std::string& content) {
  AtomicFileWriter file(path);
  file.Write(content);
  file.Commit();
}

}  // namespace dcqcn
