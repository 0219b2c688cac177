// Test helper for TensorIOTests' crash-evidence test: does what a crashing runtime call does inside
// TensorIO — stderr captured to an unlinked file as `tensorio` does, an activity set — then crashes for
// real with the signal named by argv[1] ("segv" dereferences NULL, "abort" calls abort(), as an uncaught
// C++ exception does; "nested" captures again inside the first capture, as the library does inside
// `tensorio`'s, and dereferences NULL). The test checks what reaches the real stderr and how the process ends.
#include "CCrashReport.h"

#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "segv";
    tio_crash_report_install();
    char template[] = "/tmp/crash-report-probe-XXXXXX";
    int capture = mkstemp(template);
    if (capture < 0) return 2;
    unlink(template);
    int saved = dup(STDERR_FILENO);
    fflush(stderr);
    dup2(capture, STDERR_FILENO);
    tio_crash_report_set_captured_stderr(capture, saved);
    if (strcmp(mode, "nested") == 0) {
        char inner_template[] = "/tmp/crash-report-probe-XXXXXX";
        int inner = mkstemp(inner_template);
        if (inner < 0) return 2;
        unlink(inner_template);
        int outer = dup(STDERR_FILENO);
        fflush(stderr);
        dup2(inner, STDERR_FILENO);
        if (tio_crash_report_push_captured_stderr(inner, outer) != 0) return 2;
    }
    fprintf(stderr, "ERROR: the kernel's last words before the crash\n");
    fflush(stderr);
    tio_crash_report_set_activity("loading probe.tiobundle/model.tflite");
    if (strcmp(mode, "abort") == 0) abort();
    volatile int *nowhere = NULL;
    return *nowhere;
}
