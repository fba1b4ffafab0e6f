// Files are written to a temporary name and renamed when complete, so an interrupted run
// never leaves a half-written result.
#pragma once

#include <string>
#include <string_view>

namespace dcqcn {

// A file written piece by piece (buffered) under an unpredictable temporary name in its folder,
// and renamed to `path` by Commit(); removed if never committed. So a file of gigabytes (the
// flows of a run of millions) never has to be one string in memory.
class AtomicFileWriter {
 public:
  // Creates missing parent directories and the temporary file. Throws std::runtime_error.
  explicit AtomicFileWriter(std::string path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void Write(std::string_view bytes);
  // Writes what is buffered, closes and renames. Throws std::runtime_error on I/O failure
  // (e.g. a full disk), leaving no file.
  void Commit();

 private:
  void Flush();
  [[noreturn]] void Fail(int err);  // removes the temporary file and throws
  std::string path_;
  std::string tmp_;
  std::string buffer_;
  int fd_ = -1;
};

// Writes `content` to `path` atomically (temp file in the same directory + rename); creates
// missing parent directories. Throws std::runtime_error on I/O failure.
void WriteFileAtomic(const std::string& path, const std::string& content);

}  // namespace dcqcn
