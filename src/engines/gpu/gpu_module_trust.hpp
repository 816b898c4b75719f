#pragma once

// Whether a GPU module file may be loaded into this process. Loading runs
// the module's code as the user, so a module that someone else could have
// put or changed there is refused, with one line that names the path at
// fault and why.
//
// The file and every directory above it must belong to root, to the user
// (the effective one) or to the owner of the running program (trusted
// already: whoever can change the module could change the program), and
// must not be writable by every user. A directory writable by all with the
// sticky bit (/tmp) is allowed: there only an entry's owner may rename or
// remove it, and the entries below are checked in turn; a build tree left
// under /tmp and deleted is recreated by its new owner, who is refused.
// Group write is allowed: a group is an administrator's grant (Debian's
// staff for /usr/local, a user's own group under umask 002), and refusing it
// would refuse ordinary installs and build trees.

#include <sys/types.h>

#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>

namespace nqueens::detail::gpu {

/// What the check needs of a file or directory: its type and permissions
/// (st_mode) and its owner.
struct path_status {
  ::mode_t mode = 0;
  ::uid_t owner = 0;
};

/// A path's status, or nullopt with `error` set where it cannot be read.
using path_status_lookup = std::function<std::optional<path_status>(const std::filesystem::path&, std::string& error)>;

/// Why the module at `module` (absolute, its symbolic links resolved) must
/// not be loaded, naming the path at fault, outermost first; empty when it
/// may. `trusted_owners` are the owners allowed beside root.
std::string module_distrust(const std::filesystem::path& module, std::span<const ::uid_t> trusted_owners,
                            const path_status_lookup& lookup);

/// The check on this machine for a module at `place`: its resolved path
/// (what to load, so that the file checked is the file loaded), why it
/// cannot be loaded at all (its path does not resolve, or it is no regular
/// file: a FIFO's open would wait for a writer, unheard by a stop signal)
/// and why it is refused as others could have changed it; each empty when
/// it does not apply.
struct module_trust {
  std::filesystem::path resolved;
  std::string unusable;
  std::string refusal;
};
module_trust check_module_place(const std::filesystem::path& place);

}  // namespace nqueens::detail::gpu
