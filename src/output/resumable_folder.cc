// Result folders that survive an interruption until their work is done.
#include "output/resumable_folder.h"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "core/error.h"
#include "core/input_file.h"
#include "output/atomic_file.h"
#include "output/staged_folder.h"

namespace dcqcn {
namespace fs = std::filesystem;
namespace {

void EmptyFolder(const fs::path& work) {
  for (const auto& entry : fs::directory_iterator(work)) fs::remove_all(entry.path());
}

// Whether `work`/runs holds a finished part: an entry that is not a hidden staging folder.
bool HasFinishedParts(const fs::path& work) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(work / "runs", ec)) {
    if (entry.path().filename().string().rfind('.', 0) != 0) return true;
  }
  return false;
}

}  // namespace

std::string FirstDifferentKey(const nlohmann::json& expected, const nlohmann::json& actual,
                              const std::vector<std::string>& ignored) {
  for (const auto& [key, value] : expected.items()) {
    if (std::find(ignored.begin(), ignored.end(), key) != ignored.end()) continue;
    if (!actual.is_object() || !actual.contains(key) || actual[key] != value) return key;
  }
  return "";
}

std::string ResumableFolder::WorkPath(const std::string& dir) {
  fs::path p = fs::path(dir).lexically_normal();
  if (p.filename().empty()) p = p.parent_path();
  return p.string() + ".unfinished";
}

ResumableFolder::ResumableFolder(const std::string& dir, bool force, bool resume,
                                 nlohmann::json description, std::string description_file)
    : dir_(CheckOutputFolder(dir, force)),
      lock_(dir_, dir),
      work_(WorkPath(dir_)),
      description_file_(std::move(description_file)) {
  std::error_code ec;
  if (fs::exists(work_, ec) && !fs::is_directory(work_, ec)) {
    throw InputError(fmt::format("--out {}: {} exists and is not a folder", dir, work_));
  }
  fs::create_directories(work_);
  const std::string described = work_ + "/" + description_file_;
  const bool has_work = HasFinishedParts(work_);
  if (fs::exists(described, ec) && has_work) {
    if (resume) {
      nlohmann::json earlier;
      try {
        earlier = nlohmann::json::parse(ReadInputFile(described, "an unfinished sweep", 1 << 30));
      } catch (const nlohmann::json::exception& e) {
        throw InputError(fmt::format("{}: damaged ({}); remove {} or use --force to start again",
                                     described, e.what(), work_));
      }
      const std::string key = FirstDifferentKey(description, earlier, {});
      if (!key.empty()) {
        throw InputError(fmt::format(
            "--resume: {} is for another sweep: its {} is {}, this command's is {} (give the "
            "same command as the interrupted one, or --force without --resume to start again)",
            work_, key, earlier.contains(key) ? earlier[key].dump() : "absent",
            description[key].dump()));
      }
    } else if (!force) {
      throw InputError(fmt::format(
          "--out {}: {} holds an unfinished sweep; add --resume to finish it, or --force to "
          "delete it and start again",
          dir, work_));
    }
  }
  if (!resume || !has_work) EmptyFolder(work_);
  // Run folders being written when their process was killed (".NNN.partial-..."): they are
  // unfinished and nobody else writes here while we hold the lock.
  if (fs::exists(work_ + "/runs", ec)) {
    for (const auto& entry : fs::directory_iterator(work_ + "/runs")) {
      if (entry.path().filename().string().rfind('.', 0) == 0) fs::remove_all(entry.path());
    }
  }
  WriteFileAtomic(described, description.dump(2) + "\n");
}

ResumableFolder::~ResumableFolder() {
  std::error_code ec;
  if (!committed_ && !HasFinishedParts(work_)) {
    fs::remove_all(work_, ec);  // nothing to resume
  }
}

bool ResumableFolder::Has(const std::string& relative) const {
  std::error_code ec;
  return fs::exists(work_ + "/" + relative, ec);
}

void ResumableFolder::Commit(const nlohmann::json& description) {
  WriteFileAtomic(work_ + "/" + description_file_, description.dump(2) + "\n");
  ReplaceFolder(work_, dir_);
  committed_ = true;
}

}  // namespace dcqcn
