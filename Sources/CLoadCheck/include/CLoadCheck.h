#ifndef TENSORIO_CLOADCHECK_H
#define TENSORIO_CLOADCHECK_H

#include <spawn.h>
#include <sys/types.h>

/// Creates a pipe whose ends are close-on-exec from the start (pipe2 with O_CLOEXEC), so that a child
/// another thread spawns meanwhile never inherits them. Returns 0, or -1 with errno set.
int tio_pipe_cloexec(int fds[2]);

/// Asks the kernel to send SIGKILL to this process when its parent dies (Linux; does nothing elsewhere).
/// Returns 0, or -1 with errno set.
int tio_die_with_parent(void);

/// Adds "close every descriptor from `lowest` up" to a spawn's file actions, so that the child inherits
/// only stdin, stdout and stderr even when the caller holds descriptors without close-on-exec (glibc
/// 2.34 and later; elsewhere returns ENOSYS and the caller relies on close-on-exec).
int tio_spawn_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest);

/// Whether child `pid` has ended, without reaping it (waitid with WNOWAIT): 1 ended, 0 still running,
/// -1 with errno set (EINTR, or ECHILD when it was reaped elsewhere).
int tio_child_has_ended(pid_t pid);

#endif
