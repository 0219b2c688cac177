import ArgumentParser
import Foundation
import TensorIODelivery

/// `--trusted-key PUBLIC` (repeatable), for the commands that install versions.
struct TrustedKeyOptions: ParsableArguments {
    @Option(
        name: .customLong("trusted-key"),
        help: "A publisher's public key file (from keygen); repeat for several. With any, only versions signed by one of them are installed.")
    var trustedKeys: [String] = []

    /// The trusted keys, or `nil` when none was given (unsigned versions are then installed too).
    func resolve() throws -> TrustedKeys? {
        guard !trustedKeys.isEmpty else { return nil }
        return TrustedKeys(try trustedKeys.map { try PublisherKey(contentsOf: URL(fileURLWithPath: $0)) })
    }
}
