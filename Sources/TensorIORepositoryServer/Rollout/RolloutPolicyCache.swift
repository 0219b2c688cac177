#if Server  // built with the Server trait only (Package.swift)
import Foundation
import TensorIODelivery

/// Prepared policies, reused while a model's rules stay the same, so that an assignment does not check
/// and prepare the rules again on every request.
///
/// Keyed by content, not by revision: an entry is used only when the rules just read from the index are
/// equal to the ones it was prepared from, so it can never serve rules that changed (with one instance or
/// several on one database), and entries of different servers in one process cannot mix up.
final class RolloutPolicyCache: @unchecked Sendable {  // `entries` only under `lock`
    /// One process-wide cache: a policy depends only on the model id, the rules and the paused flag.
    static let shared = RolloutPolicyCache()

    /// The most models kept; past it the cache starts over (a bound, not a policy: rules change rarely).
    static let capacity = 1024

    private struct Entry {
        var rules: [RolloutRule]
        var paused: Bool
        var policy: RolloutPolicy
    }

    private let lock = NSLock()
    private var entries: [String: Entry] = [:]

    /// The policy for `rollout`, prepared now or reused.
    ///
    /// - Throws: ``RolloutInvalid`` when the rules do not pass the checks (rules written by a newer server).
    func policy(for rollout: Rollout) throws(RolloutInvalid) -> RolloutPolicy {
        if let entry = lock.withLock({ entries[rollout.modelId] }), entry.paused == rollout.paused, entry.rules == rollout.rules {
            return entry.policy
        }
        let policy = try RolloutPolicy(modelId: rollout.modelId, rules: rollout.rules, paused: rollout.paused)
        lock.withLock {
            if entries.count >= Self.capacity { entries.removeAll(keepingCapacity: true) }
            entries[rollout.modelId] = Entry(rules: rollout.rules, paused: rollout.paused, policy: policy)
        }
        return policy
    }
}
#endif
