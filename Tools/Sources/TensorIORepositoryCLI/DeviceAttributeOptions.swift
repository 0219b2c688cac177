import ArgumentParser
import Foundation
import TensorIODelivery
import TensorIOToolSupport

/// `--installation-id`, `--attribute KEY=VALUE`: the device attributes that `pull`, `update` and
/// `rollout assign` send, so that the server's rollout rules can target this machine.
struct DeviceAttributeOptions: ParsableArguments {
    @Option(
        name: .customLong("installation-id"),
        help: "The installation id that decides rollout buckets (default: the store's, a random UUID created once in DIR/installation-id).")
    var installationId: String?

    @Option(
        name: .customLong("attribute"),
        help: ArgumentHelp(
            "A device attribute for the rollout rules: appVersion, platform, osVersion, locale, region or deviceClass, else a custom key (custom.KEY=VALUE is always custom). Repeatable.",
            valueName: "KEY=VALUE"))
    var attributes: [String] = []

    /// The attributes: the system's platform, OS version, locale and region, then the options on top.
    ///
    /// - Parameter store: Where the installation id is kept when `--installation-id` is not given.
    func resolve(store: ModelStore?) throws -> DeviceAttributes {
        let id: String
        if let installationId {
            id = installationId
        } else if let store {
            id = try store.installationId()
        } else {
            throw CLIError.usage("give --installation-id (there is no store to keep one in)")
        }
        var result = DeviceAttributes.system(installationId: id)
        for text in attributes {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex else {
                throw CLIError.usage("--attribute \(text) is not KEY=VALUE")
            }
            let key = String(text[..<equals])
            let value = String(text[text.index(after: equals)...])
            switch key.lowercased().replacingOccurrences(of: "-", with: "").replacingOccurrences(of: "_", with: "") {
            case "appversion": result.appVersion = value
            case "platform": result.platform = value
            case "osversion": result.osVersion = value
            case "locale": result.locale = value
            case "region": result.region = value
            case "deviceclass": result.deviceClass = value
            case "installationid": throw CLIError.usage("give the installation id with --installation-id, not --attribute")
            default:
                let custom = key.hasPrefix("custom.") ? String(key.dropFirst("custom.".count)) : key
                guard !custom.isEmpty else { throw CLIError.usage("--attribute \(text) has no custom key after \"custom.\"") }
                result.custom[custom] = value
            }
        }
        return result
    }
}
