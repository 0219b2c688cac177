import Foundation

/// Work that must still be done when the tool ends on the spot — its output pipe closed (``StandardOutput``
/// exits at once, as `tensorio detect clip.mp4 --draw drawn.mp4 | head -3` asks): writing a drawn video's
/// index, without which the file does not play.
///
/// An action runs on the thread that is ending the process, which is the thread that printed: the work that
/// registered it is stopped there, so what it touches is not in use elsewhere.
package final class ExitCleanup: @unchecked Sendable {
    /// The tool's one list.
    package static let shared = ExitCleanup()

    private let lock = NSLock()
    private var actions: [Int: () -> Void] = [:]  // guarded by `lock`
    private var nextKey = 0  // guarded by `lock`

    /// Adds `action`; ``remove(_:)`` with the key returned once it is no longer needed.
    package func add(_ action: @escaping () -> Void) -> Int {
        lock.withLock {
            nextKey += 1
            actions[nextKey] = action
            return nextKey
        }
    }

    /// Removes the action added under `key`.
    package func remove(_ key: Int) {
        _ = lock.withLock { actions.removeValue(forKey: key) }
    }

    /// Runs every action once, in the order they were added, and forgets them.
    package func runAll() {
        let pending = lock.withLock {
            defer { actions = [:] }
            return actions.sorted { $0.key < $1.key }.map(\.value)
        }
        for action in pending { action() }
    }
}
