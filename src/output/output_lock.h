// One dcqcn process at a time writes a result folder: the lock every writer of `--out` takes.
#pragma once

#include <string>

namespace dcqcn {

// An exclusive lock on result folder `dir`, held from before its staging folder is made until
// after it is put in place. It is a hidden file beside the folder (".<name>.lock"), never inside
// anything that is renamed or deleted: a lock inside the folder would go with the folder, and a
// second writer could lock a fresh file while the first still moved or deleted its work. The
// file is removed when the lock is released (a killed holder leaves it, unlocked, for the next).
class OutputLock {
 public:
  // Takes the lock, or throws InputError naming --out `shown` when another process holds it.
  OutputLock(const std::string& dir, const std::string& shown);
  ~OutputLock();
  OutputLock(const OutputLock&) = delete;
  OutputLock& operator=(const OutputLock&) = delete;

  // ".<name>.lock" beside `dir`.
  static std::string LockPath(const std::string& dir);

 private:
  std::string path_;
  int fd_ = -1;
};

}  // namespace dcqcn
