#pragma once
// Descriptor-relative file-system helpers for OutputDir: removing a tree without following
// symbolic links, leftovers of killed builds, and the cleanup run on a fatal signal.
#include <fcntl.h>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace fabc::fstree {

constexpr int DirFlags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC;

// A relative path that stays below its root: no leading '/', no empty, '.' or '..' part.
bool validRel(std::string_view rel);
// "a/b/c" -> {"a/b", "c"}; "c" -> {"", "c"}.
std::pair<std::string_view, std::string_view> splitRel(std::string_view rel);
// Walks `relDir` from `root` with O_NOFOLLOW at every step (a symbolic link fails with
// ELOOP), making missing directories when asked. A descriptor (root itself for ""), or
// -1 with errno and, in `failedAt`, the prefix that failed.
int walk(int root, std::string_view relDir, bool make, std::string_view *failedAt = nullptr);
// The names in a directory (without "." and ".."), with their d_type.
std::vector<std::pair<std::string, unsigned char>> list(int dirFd);
// write(2) until done; false with errno.
bool writeAll(int fd, std::string_view s);
// Creates `name` below dirFd (O_EXCL, O_NOFOLLOW) holding `text`; false with errno.
bool writeFileAt(int dirFd, const char *name, std::string_view text);

// Removes `name` below `dirFd` (a file, a symbolic link or a whole directory tree) and
// never follows a symbolic link. Async-signal-safe (getdents64 into a stack buffer).
void removeAt(int dirFd, const char *name);

// Staging directories are `prefix` + randomName(), and hold StagingMarker from the
// moment they are made until the commit renames them into place (the marker is removed
// just before) or until the previous tree, renamed aside, is removed (it gets one too).
// Only such a directory is ever removed as a leftover: never a user's directory whose
// name merely starts like one (`.out.fabc-backup/`).
constexpr const char *StagingMarker = ".fabc-staging-marker";
constexpr size_t RandomNameSize = 8;
bool isStagingName(std::string_view name, std::string_view prefix);
// Creates StagingMarker below the staging directory; false with errno.
bool markStaging(int stagingFd);
// Removes `name` below dirFd when it holds StagingMarker and its flock can be taken (a
// killed build's staging directory), or when it is empty and unlocked (a build killed
// before it marked it); true when removed.
bool removeIfLeftover(int dirFd, const std::string &name);
// removeIfLeftover on each entry below `dirFd` named isStagingName(_, prefix).
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
// commit's renames are never cut in half by a catchable signal. False when a signal
// handler is already removing the staging directory: the commit must not start.
bool defer();
// True once a signal handler (on another thread, maybe) has begun removing the armed
// entries: whoever creates one after arming it checks this and removes it itself.
bool dying();
void undefer();

} // namespace fabc::fstree
