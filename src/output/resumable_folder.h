// A result folder built in OUT.unfinished beside its final place, where every finished part
// stays when the work is interrupted or killed, so that a later process can go on from there;
// put in place of OUT whole when the work is done. A sweep uses it for its runs (`--resume`).
#pragma once

#include <nlohmann/json.hpp>
#include <string>

#include "output/output_lock.h"

namespace dcqcn {

class ResumableFolder {
 public:
  // The folder the work is built in: "<dir>.unfinished".
  static std::string WorkPath(const std::string& dir);

  // Opens OUT.unfinished for `description` (what the folder is for, written to its
  // `description_file`) and locks it against a second writer. When OUT.unfinished already
  // holds unfinished work: with `resume` its description must be `description` (else an
  // InputError names the first key that differs); with `force` it is emptied; otherwise it is an
  // InputError, so that finished work is never deleted by accident. `dir` is checked as
  // StagedFolder checks it (CheckOutputFolder) and locked (OutputLock) until this is destroyed.
  // Staging folders that killed processes left in its `runs/` are removed.
  ResumableFolder(const std::string& dir, bool force, bool resume, nlohmann::json description,
                  std::string description_file);
  // Unlocks. The work stays for a resume unless nothing in it is finished (no `runs/` entry).
  ~ResumableFolder();
  ResumableFolder(const ResumableFolder&) = delete;
  ResumableFolder& operator=(const ResumableFolder&) = delete;

  const std::string& path() const { return work_; }
  const std::string& dir() const { return dir_; }
  // Whether the file `relative` exists in the work folder (a finished part).
  bool Has(const std::string& relative) const;
  // Writes `description` (the one given, completed) and puts the work folder in place of `dir`.
  void Commit(const nlohmann::json& description);

 private:
  std::string dir_;
  OutputLock lock_;  // before anything below is touched, released after
  std::string work_;
  std::string description_file_;
  bool committed_ = false;
};

// The first key of `expected` whose value `actual` does not have ("" when all match); keys in
// `ignored` are skipped.
std::string FirstDifferentKey(const nlohmann::json& expected, const nlohmann::json& actual,
                              const std::vector<std::string>& ignored);

}  // namespace dcqcn
