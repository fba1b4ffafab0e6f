// A result folder built under a temporary name beside its final place and swapped in whole when
// the run ends, so two runs never mix their files and an interrupted run leaves the previous
// results intact.
#pragma once

#include <atomic>
#include <string>

#include "output/output_lock.h"

namespace dcqcn {

// Checks that `dir` may be replaced by a result folder (see StagedFolder) and creates its parent;
// returns it normalised ("out/" -> "out"; a link to a folder -> that folder, so that the link
// stays). Throws InputError naming --out.
std::string CheckOutputFolder(const std::string& dir, bool force);

// Puts folder `staging` in place of `dir` (an atomic exchange where the file system supports it)
// and deletes the previous content.
void ReplaceFolder(const std::string& staging, const std::string& dir);

class StagedFolder {
 public:
  // Creates the staging folder. Throws InputError when `dir` exists and is not a folder, or is a
  // non-empty folder that holds no dcqcn result (no summary.json or sweep.csv) and `force` is
  // false: replacing it would delete files we did not write. Locks `dir` (OutputLock) until
  // this is destroyed: a second writer stops with an error. Removes staging folders that runs
  // killed earlier left beside `dir`. `stop` (a stop request set by a signal handler; may be
  // null): once it is set, Commit throws Interrupted instead, and nothing is put in place, so
  // that a stop that comes while the results are written still leaves nothing written.
  StagedFolder(std::string dir, bool force, const std::atomic<bool>* stop = nullptr);
  // Removes the staging folder unless Commit() ran.
  ~StagedFolder();
  StagedFolder(const StagedFolder&) = delete;
  StagedFolder& operator=(const StagedFolder&) = delete;

  // Where the run writes its files.
  const std::string& path() const { return staging_; }
  // The final folder.
  const std::string& dir() const { return dir_; }
  // Puts the staged folder in place of `dir` (an atomic exchange where the file system supports
  // it) and deletes the previous content; throws Interrupted when the stop request is set.
  void Commit();

 private:
  std::string dir_;
  OutputLock lock_;
  std::string staging_;
  const std::atomic<bool>* stop_;
  bool committed_ = false;
};

}  // namespace dcqcn
