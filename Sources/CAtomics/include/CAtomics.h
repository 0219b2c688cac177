// Sequentially consistent atomic words for TensorIO's instance pool.
//
// Written in C because Swift's own atomics (the Synchronization module) need iOS 18 and TensorIO supports
// iOS 16. Every operation is sequentially consistent: the pool's no-lost-wakeup argument (a releaser's store
// and a waiter's increment cannot both miss each other) needs a single total order, nothing weaker.
//
// The words live in memory the caller allocates (aligned, one per cache line, so two threads using two
// slots do not share a line); these functions treat it as _Atomic.
#ifndef TIO_ATOMICS_H
#define TIO_ATOMICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The size of a cache line on the machines TensorIO runs on (x86-64 and Apple/ARM64 cores share 64 or
/// 128 bytes; 128 keeps adjacent-line prefetching from pairing two words too).
#define TIO_ATOMIC_WORD_STRIDE 128

static inline intptr_t tio_atomic_load(intptr_t *word) {
    return atomic_load((_Atomic(intptr_t) *)word);
}

static inline void tio_atomic_store(intptr_t *word, intptr_t value) {
    atomic_store((_Atomic(intptr_t) *)word, value);
}

/// Sets `*word` to `desired` if it holds `expected`; true when it did.
static inline bool tio_atomic_compare_exchange(intptr_t *word, intptr_t expected, intptr_t desired) {
    return atomic_compare_exchange_strong((_Atomic(intptr_t) *)word, &expected, desired);
}

/// Adds `delta`; returns the value before.
static inline intptr_t tio_atomic_fetch_add(intptr_t *word, intptr_t delta) {
    return atomic_fetch_add((_Atomic(intptr_t) *)word, delta);
}

/// A per-thread hint: the slot the calling thread used last, so threads sharing a pool each go back to
/// their own slot first instead of all trying the first one.
intptr_t tio_thread_slot_hint(void);
void tio_set_thread_slot_hint(intptr_t slot);

#ifdef __cplusplus
}
#endif

#endif
