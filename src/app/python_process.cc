// Running the command line's Python helpers: posix_spawn, then wait for the exit code.
#include "app/python_process.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

extern char** environ;

namespace dcqcn {

SpawnResult Spawn(const std::vector<std::string>& args, bool silent,
                  const std::function<void(pid_t)>& on_started) {
  std::vector<char*> argv;
  for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  if (silent) {
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, "/dev/null", O_WRONLY, 0);
  }
  pid_t pid = 0;
  int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  SpawnResult result;
  if (rc != 0) {
    result.error = rc;
    return result;
  }
  result.started = true;
  if (on_started) on_started(pid);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) {
      result.error = errno;
      return result;
    }
  }
  if (WIFEXITED(status)) result.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) result.signal = WTERMSIG(status);
  return result;
}

std::string PythonInterpreter() {
  const char* env = std::getenv("DCQCN_PYTHON");
  return env != nullptr && *env != '\0' ? env : "/usr/bin/python3";
}

}  // namespace dcqcn
