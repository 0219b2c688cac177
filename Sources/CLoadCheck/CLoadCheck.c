// What isolated load checks need from the C library that Swift's Glibc module does not import
// (both are behind _GNU_SOURCE or Linux-only headers).
#define _GNU_SOURCE
#include "CLoadCheck.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#ifdef __linux__
#include <sys/prctl.h>
#endif

int tio_pipe_cloexec(int fds[2]) {
#ifdef __linux__
    return pipe2(fds, O_CLOEXEC);
#else
    if (pipe(fds) != 0) return -1;
    fcntl(fds[0], F_SETFD, FD_CLOEXEC);
    fcntl(fds[1], F_SETFD, FD_CLOEXEC);
    return 0;
#endif
}

int tio_die_with_parent(void) {
#ifdef __linux__
    return prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
#else
    return 0;
#endif
}

int tio_spawn_actions_closefrom(posix_spawn_file_actions_t *actions, int lowest) {
#if defined(__GLIBC__) && __GLIBC_PREREQ(2, 34)
    return posix_spawn_file_actions_addclosefrom_np(actions, lowest);
#else
    (void)actions;
    (void)lowest;
    return ENOSYS;
#endif
}

int tio_child_has_ended(pid_t pid) {
    siginfo_t info;
    info.si_pid = 0;
    if (waitid(P_PID, (id_t)pid, &info, WEXITED | WNOHANG | WNOWAIT) != 0) return -1;
    return info.si_pid == pid ? 1 : 0;
}
