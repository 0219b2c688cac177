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
/// an app's own crash reporter still runs.
void tio_crash_report_install(void);

/// Sets what the calling thread is doing ("loading Examples/x.tiobundle/model.tflite"), or NULL for
/// nothing; returns the previous value so nested calls can restore it. The string must outlive the call
/// that clears it.
const char *tio_crash_report_set_activity(const char *activity);

/// While stderr (fd 2) is redirected to the file `capture_fd`, with the real stderr kept as
/// `original_fd`: a crash puts the real stderr back and copies the last bytes of the capture to it.
/// Pass -1, -1 when the redirection ends.
void tio_crash_report_set_captured_stderr(int capture_fd, int original_fd);

#ifdef __cplusplus
}
#endif

#endif
