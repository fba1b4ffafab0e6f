// Result folders swapped in whole.
#include "output/staged_folder.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <system_error>

#include "core/error.h"

namespace dcqcn {
namespace fs = std::filesystem;
namespace {

// ".<name>.partial-<pid>-<random>" beside the final folder: hidden, named after its owner so that
// a later run can tell whether that process is gone, and created by mkdtemp (an unpredictable
// name, created exclusively: a folder or link planted under a guessed name is never used).
std::string StagingPrefix(const fs::path& dir) {
  return "." + dir.filename().string() + ".partial-";
}

bool IsResultFolder(const fs::path& dir) {
  return fs::exists(dir / "summary.json") || fs::exists(dir / "sweep.csv");
}

// Deletes staging folders of processes that no longer run (killed before they could clean up).
void RemoveAbandoned(const fs::path& dir) {
  const fs::path parent = dir.parent_path().empty() ? fs::path(".") : dir.parent_path();
  const std::string prefix = StagingPrefix(dir);
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(parent, ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind(prefix, 0) != 0) continue;
    const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
    if (pid > 0 && kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) {
      fs::remove_all(entry.path(), ec);
    }
  }
}

}  // namespace

StagedFolder::StagedFolder(std::string dir, bool force) : dir_(std::move(dir)) {
  fs::path final_dir = fs::path(dir_).lexically_normal();
  if (final_dir.filename().empty()) final_dir = final_dir.parent_path();  // "out/" -> "out"
  if (final_dir.empty() || final_dir.filename() == "." || final_dir.filename() == ".." ||
      final_dir == final_dir.root_path()) {
    throw InputError(fmt::format(
        "--out {}: give a folder of its own, such as results/run1 (the run replaces its output "
        "folder whole)",
        dir_));
  }
  std::error_code ec;
  if (fs::exists(final_dir, ec)) {
    if (!fs::is_directory(final_dir, ec)) {
      throw InputError(fmt::format("--out {}: exists and is not a folder", dir_));
    }
    if (!force && !fs::is_empty(final_dir, ec) && !IsResultFolder(final_dir)) {
      throw InputError(fmt::format(
          "--out {}: the folder holds files that are not a dcqcn result (no summary.json or "
          "sweep.csv); the run replaces its output folder whole, so give an empty or new folder, "
          "or --force to replace it",
          dir_));
    }
  }
  if (final_dir.has_parent_path()) fs::create_directories(final_dir.parent_path());
  RemoveAbandoned(final_dir);
  std::string staging =
      (final_dir.parent_path() / fmt::format("{}{}-XXXXXX", StagingPrefix(final_dir), getpid()))
          .string();
  if (mkdtemp(staging.data()) == nullptr) {
    throw InputError(
        fmt::format("--out {}: cannot create {}: {}", dir_, staging, std::strerror(errno)));
  }
  // mkdtemp makes it private (0700); results get the permissions of any new folder.
  static const mode_t umask_bits = [] {
    const mode_t m = umask(0);
    umask(m);
    return m;
  }();
  chmod(staging.c_str(), 0777 & ~umask_bits);
  dir_ = final_dir.string();
  staging_ = staging;
}

StagedFolder::~StagedFolder() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void StagedFolder::Commit() {
  std::error_code ec;
  if (!fs::exists(dir_, ec)) {
    if (std::rename(staging_.c_str(), dir_.c_str()) != 0) {
      throw std::runtime_error(
          fmt::format("cannot move {} to {}: {}", staging_, dir_, std::strerror(errno)));
    }
    committed_ = true;
    return;
  }
  // Swap the two folders in one step, then delete the old results now under the staging name.
  if (renameat2(AT_FDCWD, staging_.c_str(), AT_FDCWD, dir_.c_str(), RENAME_EXCHANGE) != 0) {
    // No exchange on this file system: move the old folder aside first.
    const std::string old = staging_ + ".old";
    if (std::rename(dir_.c_str(), old.c_str()) != 0 ||
        std::rename(staging_.c_str(), dir_.c_str()) != 0) {
      throw std::runtime_error(
          fmt::format("cannot replace {} by {}: {}", dir_, staging_, std::strerror(errno)));
    }
    fs::remove_all(old, ec);
    committed_ = true;
    return;
  }
  committed_ = true;
  fs::remove_all(staging_, ec);
}

}  // namespace dcqcn
