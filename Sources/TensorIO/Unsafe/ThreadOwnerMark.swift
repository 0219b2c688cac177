import Foundation

/// A mark on a thread naming the object that started it, read back to ask "is this one of that object's
/// threads?": how ``RunThreads`` knows it is called on one of its own threads (it then runs the work
/// right there instead of waking another thread and waiting).
///
/// Unsafe because the mark is the object's address, kept in a pthread key without a reference (a thread
/// must not keep its owner alive through it, and a key cannot release one). The contract: the mark is only
/// ever compared with another object's address, never turned back into a reference, so it needs no
/// lifetime; the owner outlives the threads it marks (``RunThreads``' threads hold it strongly and never
/// end), so no other object can be given its address while a mark names it.
enum ThreadOwnerMark {
    /// The key, one for the process: each thread holds one owner at most.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key, nil)
        assert(status == 0, "no pthread key for thread owners (\(status))")
        return key
    }()

    /// Marks the calling thread as `owner`'s.
    static func markCurrentThread(as owner: AnyObject) {
        let status = pthread_setspecific(key, Unmanaged.passUnretained(owner).toOpaque())
        assert(status == 0, "a thread's owner mark not set (\(status))")
    }

    /// Whether the calling thread was marked as `owner`'s (`false` on any thread never marked).
    static func isCurrentThread(ownedBy owner: AnyObject) -> Bool {
        let mark: UnsafeMutableRawPointer? = pthread_getspecific(key)
        return mark == Unmanaged.passUnretained(owner).toOpaque()
    }
}
