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

std::string CheckOutputFolder(const std::string& dir, bool force) {
  fs::path final_dir = fs::path(dir).lexically_normal();
  if (final_dir.filename().empty()) final_dir = final_dir.parent_path();  // "out/" -> "out"
  if (final_dir.empty() || final_dir.filename() == "." || final_dir.filename() == ".." ||
      final_dir == final_dir.root_path()) {
    throw InputError(fmt::format(
        "--out {}: give a folder of its own, such as results/run1 (the run replaces its output "
        "folder whole)",
        dir));
  }
  std::error_code ec;
  // A link to a folder is where the user keeps results: they go into its target and the link
  // stays (a rename onto the link would replace it by a folder).
  if (fs::is_symlink(fs::symlink_status(final_dir, ec))) {
    const fs::path target = fs::canonical(final_dir, ec);
    if (ec) {
      throw InputError(fmt::format("--out {}: a link to {}, which does not exist", dir,
                                   fs::read_symlink(final_dir, ec).string()));
    }
    final_dir = target;
  }
  // The first ancestor that exists must be a folder (else the raw "Not a directory" of mkdir).
  for (fs::path up = final_dir.parent_path(); !up.empty(); up = up.parent_path()) {
    if (fs::exists(up, ec)) {
      if (!fs::is_directory(up, ec)) {
        throw InputError(fmt::format("--out {}: {} is a file, not a folder", dir, up.string()));
      }
      break;
    }
    if (up == up.parent_path()) break;
  }
  if (fs::exists(final_dir, ec)) {
    if (!fs::is_directory(final_dir, ec)) {
      throw InputError(fmt::format("--out {}: exists and is not a folder", dir));
    }
    if (!force && !fs::is_empty(final_dir, ec) && !IsResultFolder(final_dir)) {
      throw InputError(fmt::format(
          "--out {}: the folder holds files that are not a dcqcn result (no summary.json or "
          "sweep.csv); the run replaces its output folder whole, so give an empty or new folder, "
          "or --force to replace it",
          dir));
    }
  }
  if (final_dir.has_parent_path()) {
    fs::create_directories(final_dir.parent_path(), ec);
    if (ec) {
      throw InputError(fmt::format("--out {}: cannot create {}: {}", dir,
                                   final_dir.parent_path().string(), ec.message()));
    }
  }
  return final_dir.string();
}

void ReplaceFolder(const std::string& staging, const std::string& dir) {
  std::error_code ec;
  if (!fs::exists(dir, ec)) {
    if (std::rename(staging.c_str(), dir.c_str()) != 0) {
      throw std::runtime_error(
          fmt::format("cannot move {} to {}: {}", staging, dir, std::strerror(errno)));
    }
    return;
  }
  // Swap the two folders in one step, then delete the old results now under the staging name.
  if (renameat2(AT_FDCWD, staging.c_str(), AT_FDCWD, dir.c_str(), RENAME_EXCHANGE) != 0) {
    // No exchange on this file system: move the old folder aside first.
    const std::string old = staging + ".old";
    if (std::rename(dir.c_str(), old.c_str()) != 0 ||
        std::rename(staging.c_str(), dir.c_str()) != 0) {
      throw std::runtime_error(
          fmt::format("cannot replace {} by {}: {}", dir, staging, std::strerror(errno)));
    }
    fs::remove_all(old, ec);
    return;
  }
  fs::remove_all(staging, ec);
}

StagedFolder::StagedFolder(std::string dir, bool force, const std::atomic<bool>* stop)
    : dir_(CheckOutputFolder(dir, force)), lock_(dir_, dir), stop_(stop) {
  const fs::path final_dir = dir_;
  RemoveAbandoned(final_dir);
  std::string staging =
      (final_dir.parent_path() / fmt::format("{}{}-XXXXXX", StagingPrefix(final_dir), getpid()))
          .string();
  if (mkdtemp(staging.data()) == nullptr) {
    throw InputError(
        fmt::format("--out {}: cannot create {}: {}", dir, staging, std::strerror(errno)));
  }
  // mkdtemp makes it private (0700); results get the permissions of any new folder.
  static const mode_t umask_bits = [] {
    const mode_t m = umask(0);
    umask(m);
    return m;
  }();
  chmod(staging.c_str(), 0777 & ~umask_bits);
  staging_ = staging;
}

StagedFolder::~StagedFolder() {
  if (committed_) return;
  std::error_code ec;
  fs::remove_all(staging_, ec);
}

void StagedFolder::Commit() {
  ThrowIfStopped(stop_);
  ReplaceFolder(staging_, dir_);
  committed_ = true;
}

}  // namespace dcqcn
