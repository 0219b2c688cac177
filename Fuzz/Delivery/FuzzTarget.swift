// Fuzz target: what the delivery side parses from others — a rollout's rules (`PUT …/rollout`, strict
// decoding, then the policy's checks and an evaluation), a device's assignment request, and a release
// signature file inside a bundle (checked without a key, as the server does at upload, and against a
// trusted key, as a device does before installing). The first byte picks which.
import FuzzSupport
import Foundation
import TensorIODelivery
import TensorIORepositoryServer

/// A bundle folder per process whose signature file is rewritten for each input.
let bundle: URL = {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("fuzz-delivery-\(getpid()).tiobundle")
    try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    try? Data(#"{"name": "fuzz", "id": "fuzz", "version": "1"}"#.utf8).write(to: url.appendingPathComponent("model.json"))
    return url
}()

/// A policy with one rule of each kind, for the assignment requests.
let policy: RolloutPolicy? = try? RolloutPolicy(modelId: "fuzz", rules: [
    RolloutRule(name: "beta", when: RolloutConditions(appVersion: ">=2.4.0 <3", region: ["US", "CA"]), percent: 10, version: "2"),
    RolloutRule(name: "ab", split: [RolloutArm(version: "3", weight: 30), RolloutArm(version: "4", weight: 70)]),
], paused: false)

let devices = [
    DeviceAttributes(installationId: "a", appVersion: "2.5", platform: "ios", region: "US"),
    DeviceAttributes(installationId: "b", appVersion: "1.0-beta+7", osVersion: "17.4", locale: "fr_CA", custom: ["k": "v"]),
]

func fuzzDelivery(_ data: Data) {
    guard let kind = data.first else { return }
    let body = Data(data.dropFirst())
    switch kind % 3 {
    case 0:
        guard let update = try? RepositoryAPI.makeStrictDecoder().decode(RolloutUpdate.self, from: body),
              let policy = try? RolloutPolicy(modelId: "fuzz", rules: update.rules, paused: update.paused ?? false)
        else { return }
        for device in devices { _ = policy.evaluate(device, installedVersion: "1") }
    case 1:
        guard let request = try? RepositoryAPI.makeStrictDecoder().decode(AssignmentRequest.self, from: body) else { return }
        _ = policy?.evaluate(request.attributes, installedVersion: request.installedVersion)
    default:
        let file = bundle.appendingPathComponent("tensorio-signature.json")
        guard (try? body.write(to: file)) != nil else { return }
        _ = try? ReleaseVerifier.verifyWithoutKey(bundleAt: bundle, modelId: "fuzz", version: "1")
        // A key made for each input: a global one's bytes sit behind Swift's tagged pointers, where the
        // leak checker cannot see them, and would be reported as leaked.
        let trusted = TrustedKeys([PublisherSigningKey().publicKey])
        _ = try? ReleaseVerifier.verify(bundleAt: bundle, modelId: "fuzz", version: "1", trustedKeys: trusted)
    }
}

@main
enum FuzzTarget {
    static func main() {
        // The globals are made now, not lazily inside the first run, where libFuzzer's leak check would
        // count them as that input's leak.
        _ = (bundle, policy, devices)
        FuzzInput.main(fuzzDelivery)
    }
}
