#pragma once
// Descriptor-relative file-system helpers for OutputDir: removing a tree without following
// symbolic links, leftovers of killed builds, and the cleanup run on a fatal signal.
#include <string>
#include <string_view>

namespace fabc::fstree {

// Removes `name` below `dirFd` (a file, a symbolic link or a whole directory tree) and
// never follows a symbolic link. Async-signal-safe (getdents64 into a stack buffer).
void removeAt(int dirFd, const char *name);

// Removes the directories below `dirFd` whose name starts with `prefix` and whose flock
// can be taken: staging directories of builds that were killed.
void removeUnlocked(int dirFd, std::string_view prefix);

// `NAME.fabc-tmp-PID`: the temporary file of a fabc before the staging directory.
bool isTmpLeftover(std::string_view name);

// Eight random characters from [a-z0-9] (getrandom): unique across PID namespaces.
std::string randomName();

// On SIGINT, SIGTERM, SIGHUP and SIGPIPE (when their action is the default), the armed
// entries are removed before the process dies of the signal. arm() returns a slot, or -1.
int arm(int dirFd, const std::string &name);
void disarm(int slot);
// While deferred (a commit in progress), a signal is held and acted on by undefer(): the
// commit's renames are never cut in half by a catchable signal.
void defer();
void undefer();

} // namespace fabc::fstree
