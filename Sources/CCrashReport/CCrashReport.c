#include "CCrashReport.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

// initial-exec: reading it from a signal handler must not allocate (general-dynamic TLS may).
static __thread const char *current_activity __attribute__((tls_model("initial-exec"))) = NULL;
// Nested captures of stderr, innermost last: the tool captures around a command, the library inside it
// around a runtime call. Each level's original is where fd 2 pointed before it (the outer capture, or the
// real stderr). Pushed and popped by the thread that redirects; read by the signal handler.
#define MAX_CAPTURES 4
static atomic_int captured_fds[MAX_CAPTURES] = {-1, -1, -1, -1};
static atomic_int original_fds[MAX_CAPTURES] = {-1, -1, -1, -1};
static atomic_int capture_depth = 0;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;

static const int reported_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT};
#define REPORTED_COUNT (sizeof(reported_signals) / sizeof(reported_signals[0]))
static struct sigaction previous_actions[REPORTED_COUNT];

// How much of the captured stderr to give back: the runtime's last messages, not megabytes of logs.
#define CAPTURE_TAIL_BYTES 8192

static void write_all(int fd, const char *bytes, size_t count) {
    while (count > 0) {
        ssize_t written = write(fd, bytes, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return;
        bytes += written;
        count -= (size_t)written;
    }
}

static void write_text(int fd, const char *text) { write_all(fd, text, strlen(text)); }

static const char *signal_name(int signal_number) {
    switch (signal_number) {
    case SIGSEGV: return "SIGSEGV";
    case SIGBUS: return "SIGBUS";
    case SIGILL: return "SIGILL";
    case SIGFPE: return "SIGFPE";
    case SIGABRT: return "SIGABRT";
    default: return "a fatal signal";
    }
}

static void copy_capture_tail(int capture, int destination) {
    struct stat info;
    if (fstat(capture, &info) != 0 || info.st_size <= 0) return;
    off_t offset = info.st_size > CAPTURE_TAIL_BYTES ? info.st_size - CAPTURE_TAIL_BYTES : 0;
    char buffer[1024];
    for (;;) {
        ssize_t count = pread(capture, buffer, sizeof buffer, offset);
        if (count < 0 && errno == EINTR) continue;
        if (count <= 0) break;
        write_all(destination, buffer, (size_t)count);
        offset += count;
    }
}

static void handle(int signal_number, siginfo_t *info, void *context) {
    int saved_errno = errno;
    // Innermost first: each capture's tail goes to what fd 2 was before it, so the outermost copy carries
    // everything to the real stderr.
    int depth = atomic_exchange(&capture_depth, 0);
    if (depth > MAX_CAPTURES) depth = MAX_CAPTURES;
    for (int level = depth - 1; level >= 0; level--) {
        int capture = atomic_exchange(&captured_fds[level], -1);
        int original = atomic_exchange(&original_fds[level], -1);
        if (capture >= 0 && original >= 0) {
            dup2(original, STDERR_FILENO);
            copy_capture_tail(capture, STDERR_FILENO);
        }
    }
    const char *activity = current_activity;
    if (activity != NULL) {
        write_text(STDERR_FILENO, "TensorIO: the runtime crashed (");
        write_text(STDERR_FILENO, signal_name(signal_number));
        write_text(STDERR_FILENO, ") while ");
        write_text(STDERR_FILENO, activity);
        write_text(STDERR_FILENO, "\n");
    }

    size_t index = 0;
    while (index < REPORTED_COUNT && reported_signals[index] != signal_number) index++;
    struct sigaction *previous = index < REPORTED_COUNT ? &previous_actions[index] : NULL;
    errno = saved_errno;
    if (previous != NULL && (previous->sa_flags & SA_SIGINFO) && previous->sa_sigaction != NULL) {
        previous->sa_sigaction(signal_number, info, context);
        return;
    }
    if (previous != NULL && previous->sa_handler != SIG_DFL && previous->sa_handler != SIG_IGN) {
        previous->sa_handler(signal_number);
        return;
    }
    // The default action: restore it and raise again; the signal is blocked until this handler returns,
    // then kills the process with the right status whether it came from a fault or from raise/abort.
    struct sigaction fallback;
    memset(&fallback, 0, sizeof fallback);
    fallback.sa_handler = SIG_DFL;
    sigemptyset(&fallback.sa_mask);
    sigaction(signal_number, &fallback, NULL);
    raise(signal_number);
}

static void install(void) {
    for (size_t index = 0; index < REPORTED_COUNT; index++) {
        struct sigaction action;
        memset(&action, 0, sizeof action);
        action.sa_sigaction = handle;
        action.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&action.sa_mask);
        sigaction(reported_signals[index], &action, &previous_actions[index]);
    }
}

// Handlers only where the runtimes load (Linux): elsewhere an app's own signal handlers are left alone.
#ifdef __linux__
static const int installs_handlers = 1;
#else
static const int installs_handlers = 0;
#endif

void tio_crash_report_install(void) {
    if (installs_handlers) pthread_once(&install_once, install);
}

const char *tio_crash_report_set_activity(const char *activity) {
    const char *previous = current_activity;
    current_activity = activity;
    return previous;
}

int tio_crash_report_push_captured_stderr(int capture_fd, int original) {
    int depth = atomic_load(&capture_depth);
    if (depth >= MAX_CAPTURES) return -1;
    atomic_store(&original_fds[depth], original);
    atomic_store(&captured_fds[depth], capture_fd);
    atomic_store(&capture_depth, depth + 1);
    return 0;
}

void tio_crash_report_pop_captured_stderr(void) {
    int depth = atomic_load(&capture_depth);
    if (depth <= 0) return;
    atomic_store(&capture_depth, depth - 1);
    atomic_store(&captured_fds[depth - 1], -1);
    atomic_store(&original_fds[depth - 1], -1);
}

void tio_crash_report_set_captured_stderr(int capture_fd, int original) {
    if (capture_fd >= 0) {
        (void)tio_crash_report_push_captured_stderr(capture_fd, original);
    } else {
        tio_crash_report_pop_captured_stderr();
    }
}
