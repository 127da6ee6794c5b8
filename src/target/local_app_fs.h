// The local AppFileSystem (core/app_fs.h): a workspace `.nasperf-<host>-<pid>-<nonce>-app<N>.dir`
// made with mkdir in a directory, every operation relative to the workspace's descriptor
// (openat, mkdirat, renameat, unlinkat), each path walked one component at a time with
// O_NOFOLLOW|O_DIRECTORY so no symbolic link anywhere below the workspace is followed.
// Also the read-only view of an existing directory (`dir-copy --source DIR`).
#pragma once

#include <memory>
#include <string>

#include "base/scoped_fd.h"
#include "core/app_fs.h"

namespace nasperf {

// Makes a fresh workspace in `directory` (followed if it is a symbolic link: it is the
// user's own TARGET, like DirectoryTarget) and returns the file system inside it. A name
// that exists already is never reused: the next number is tried, then an error. With
// `keep_on_exit` the destructor leaves the workspace (RemoveWorkspace still removes it).
Result<std::unique_ptr<AppFileSystem>> OpenLocalAppFileSystem(const std::string& directory, bool keep_on_exit);
// The same in the directory open at `dir_fd` (the agent's, resolved beneath its --root);
// `directory` only names it in messages.
Result<std::unique_ptr<AppFileSystem>> OpenLocalAppFileSystemAt(ScopedFd dir_fd, const std::string& directory,
                                                                bool keep_on_exit);

// A read-only view of the existing directory `directory`: List, OpenRead (regular files
// only, never through a link below it), Space and DropClientCache (posix_fadvise on the
// files it read, no fsync: nothing here is nasperf's to flush). Every write is refused
// with BadInput naming the operation. RemoveWorkspace removes nothing.
Result<std::unique_ptr<AppFileSystem>> OpenSourceTree(const std::string& directory);

// What a process that died without its unwind (a rank SIGKILLed under mpirun) left in
// `directory`: each app workspace whose name starts with `prefix` (that process's own
// prefix, ".nasperf-<host>-<pid>-<nonce>-") and ends in ".dir", walked by descriptor and
// never through a link. Only directories and regular files of this uid with one link go;
// anything else stays, with the directories that hold it, and is named in `*left`.
// Returns the number of workspaces removed whole.
int RemoveLostWorkspaces(const std::string& directory, const std::string& prefix, std::string* left);

}  // namespace nasperf
