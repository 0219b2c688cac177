#ifndef TENSORIO_CLOADCHECK_H
#define TENSORIO_CLOADCHECK_H

/// Creates a pipe whose ends are close-on-exec from the start (pipe2 with O_CLOEXEC), so that a child
/// another thread spawns meanwhile never inherits them. Returns 0, or -1 with errno set.
int tio_pipe_cloexec(int fds[2]);

/// Asks the kernel to send SIGKILL to this process when its parent dies (Linux; does nothing elsewhere).
/// Returns 0, or -1 with errno set.
int tio_die_with_parent(void);

#endif
