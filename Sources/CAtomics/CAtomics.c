#include "CAtomics.h"

// initial-exec: read on every run, and TensorIO is linked into the program rather than loaded later.
static __thread intptr_t slot_hint __attribute__((tls_model("initial-exec")));

intptr_t tio_thread_slot_hint(void) {
    return slot_hint;
}

void tio_set_thread_slot_hint(intptr_t slot) {
    slot_hint = slot;
}
