// Crash evidence for TensorIO: when the machine-learning runtime (LiteRT, TensorFlow) crashes the process,
// say what TensorIO was doing and give the runtime's last messages back to stderr before the process dies.
//
// Written in C because a signal handler may only call async-signal-safe functions: write, pread, dup2,
// sigaction, raise. Nothing here allocates after installation.
#ifndef TIO_CRASH_REPORT_H
#define TIO_CRASH_REPORT_H

#ifdef __cplusplus
extern "C" {
#endif

/// Installs the handlers for SIGSEGV, SIGBUS, SIGILL, SIGFPE and SIGABRT once per process. Each handler
/// reports, then hands the signal to whatever handler was installed before (or the default action), so
/// an app's own crash reporter still runs. On Linux only, where the runtimes load (RuntimeLibrary):
/// elsewhere there is no runtime crash to explain, and an app's signal handlers are left alone.
void tio_crash_report_install(void);

/// Sets what the calling thread is doing ("loading Examples/x.tiobundle/model.tflite"), or NULL for
/// nothing; returns the previous value so nested calls can restore it. The string must outlive the call
/// that clears it.
const char *tio_crash_report_set_activity(const char *activity);

/// While stderr (fd 2) is redirected to the file `capture_fd`, with what fd 2 was before kept as
/// `original_fd` (the real stderr, or an outer capture): a crash puts each level back, innermost first,
/// copying the last bytes of each capture to what came before it, so the real stderr gets them. Captures
/// nest up to 4 deep and must be popped in reverse order by the thread that pushed them (redirecting fd 2
/// is process-wide: callers serialise it). Returns 0, or -1 when 4 are already pushed (nothing is recorded).
int tio_crash_report_push_captured_stderr(int capture_fd, int original_fd);

/// Ends the innermost capture pushed.
void tio_crash_report_pop_captured_stderr(void);

/// `push` for a capture fd of 0 or more, `pop` for -1: the single-level form the tool uses.
void tio_crash_report_set_captured_stderr(int capture_fd, int original_fd);

#ifdef __cplusplus
}
#endif

#endif
