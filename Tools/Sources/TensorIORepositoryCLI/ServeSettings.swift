import Configuration
import Foundation
import Logging
import TensorIOToolSupport

/// `tensorio serve`'s settings, each from the first of: its flag, its environment variable
/// (`TENSORIO_SERVE_` and the key in upper snake case), the JSON config file (`--config FILE` or
/// `TENSORIO_SERVE_CONFIG`), the default. Read through swift-configuration (flags as an in-memory
/// provider over the environment provider over the JSON file provider).
///
/// A value that is not of its key's type or outside its range, an unknown key in the file, or a file that
/// cannot be read or is not a JSON object fails with one line naming the flag, variable or file and key.
struct ServeSettings {
    var root: String
    var host = "127.0.0.1"
    var port = 8080
    var tokenFile: String?
    var readTokenFile: String?
    var maximumUploadMegabytes = 512
    var loadTimeLimit: Double = 60
    var loadMemoryLimit = 4096
    var downloadRate: Int?
    var logLevel: Logger.Level = .info
    var logFormat: LogFormat = .text
    /// A PostgreSQL index's URL; `nil` for SQLite in the root.
    var database: URL?

    /// How request and server log lines are written.
    enum LogFormat: String, CaseIterable {
        /// swift-log's stream format: `time level label: key=value … message`.
        case text
        /// One JSON object per line (`JSONLogHandler`).
        case json
    }

    /// Every setting's key, as written in the config file.
    enum Key: String, CaseIterable {
        case root, host, port, tokenFile, readTokenFile, maxUploadMb, loadTimeLimit, loadMemoryLimit, downloadRate
        case logLevel, logFormat, database

        enum Kind { case string, integer, number }

        var kind: Kind {
            switch self {
            case .port, .maxUploadMb, .loadMemoryLimit, .downloadRate: return .integer
            case .loadTimeLimit: return .number
            default: return .string
            }
        }

        /// `--max-upload-mb` for `maxUploadMb`.
        var flag: String {
            "--" + rawValue.reduce(into: "") { name, character in
                if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
            }
        }

        /// `TENSORIO_SERVE_MAX_UPLOAD_MB` for `maxUploadMb` (swift-configuration's environment key encoding).
        var environmentVariable: String {
            ServeSettings.environmentPrefix + flag.dropFirst(2).uppercased().replacingOccurrences(of: "-", with: "_")
        }
    }

    static let environmentPrefix = "TENSORIO_SERVE_"
    /// The variable naming a config file when `--config` is not given.
    static let configVariable = "TENSORIO_SERVE_CONFIG"
    /// The largest config file read.
    static let maximumConfigFileBytes = 1 << 20

    /// Resolves the settings.
    ///
    /// - Parameters:
    ///   - flags: The values given as flags, by key (a flag not given is absent).
    ///   - environment: The process's environment.
    ///   - configFile: `--config`, if given.
    /// - Throws: `CLIError` naming the flag, variable or file and key of the first bad value.
    static func resolve(
        flags: [Key: ConfigContent], environment: [String: String], configFile: String?
    ) async throws -> ServeSettings {
        var sources: [any ConfigProvider] = [
            InMemoryProvider(
                name: "flags",
                values: Dictionary(uniqueKeysWithValues: flags.map { (AbsoluteConfigKey([$0.key.rawValue]), ConfigValue($0.value, isSecret: false)) })),
            EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: ["tensorio", "serve"]),
        ]
        let filePath = configFile ?? environment[configVariable].flatMap { $0.isEmpty ? nil : $0 }
        var fileKeys: Set<String> = []
        if let filePath {
            fileKeys = try checkedFileKeys(filePath, named: configFile == nil ? configVariable : "--config")
            do {
                // FileProvider reads its own path from a reader, which keeps SystemPackage's FilePath out of here.
                let location = InMemoryProvider(values: ["filePath": ConfigValue(.string(filePath), isSecret: false)])
                sources.append(try await FileProvider<JSONSnapshot>(config: ConfigReader(provider: location)))
            } catch {
                throw CLIError("config file \(filePath): \(error)")
            }
        }
        let reader = ConfigReader(providers: sources)

        /// Where the value of `key` comes from, for error messages.
        func source(_ key: Key) -> String {
            if flags[key] != nil { return key.flag }
            if environment[key.environmentVariable] != nil { return key.environmentVariable }
            if let filePath, fileKeys.contains(key.rawValue) { return "\(key.rawValue) in \(filePath)" }
            return key.flag
        }
        func isSet(_ key: Key) -> Bool {
            flags[key] != nil || environment[key.environmentVariable] != nil || fileKeys.contains(key.rawValue)
        }
        func string(_ key: Key) throws -> String? {
            guard isSet(key) else { return nil }
            guard let value = reader.string(forKey: ConfigKey([key.rawValue])) else {
                throw CLIError("\(source(key)) must be a string")
            }
            return value
        }
        func integer(_ key: Key, in range: ClosedRange<Int>, _ rule: String) throws -> Int? {
            guard isSet(key) else { return nil }
            let configKey = ConfigKey([key.rawValue])
            guard let value = reader.int(forKey: configKey) else {
                let text = reader.string(forKey: configKey).map { ", not \"\($0.prefix(64))\"" } ?? ""
                throw CLIError("\(source(key)) must be a whole number\(text)")
            }
            guard range.contains(value) else { throw CLIError("\(source(key)) must be \(rule), not \(value)") }
            return value
        }

        guard let root = try string(.root), !root.isEmpty else {
            throw CLIError.usage("serve needs a root folder: --root DIR, \(Key.root.environmentVariable) or \"root\" in the config file")
        }
        var settings = ServeSettings(root: root)
        if let host = try string(.host) {
            guard !host.isEmpty else { throw CLIError("\(source(.host)) must not be empty") }
            settings.host = host
        }
        if let port = try integer(.port, in: 0...65535, "from 0 to 65535") { settings.port = port }
        settings.tokenFile = try string(.tokenFile)
        settings.readTokenFile = try string(.readTokenFile)
        // 1 TiB at most, so that the byte count cannot overflow.
        if let megabytes = try integer(.maxUploadMb, in: 1...(1 << 20), "from 1 to 1048576 MiB") {
            settings.maximumUploadMegabytes = megabytes
        }
        if isSet(.loadTimeLimit) {
            let configKey = ConfigKey([Key.loadTimeLimit.rawValue])
            guard let seconds = reader.double(forKey: configKey) ?? reader.int(forKey: configKey).map(Double.init) else {
                throw CLIError("\(source(.loadTimeLimit)) must be a number of seconds")
            }
            guard seconds > 0, seconds <= 86_400 else {
                throw CLIError("\(source(.loadTimeLimit)) must be between 0 and 86400 seconds, not \(seconds)")
            }
            settings.loadTimeLimit = seconds
        }
        if let memory = try integer(.loadMemoryLimit, in: 16...(1 << 30), "from 16 to 1073741824 MiB") {
            settings.loadMemoryLimit = memory
        }
        settings.downloadRate = try integer(.downloadRate, in: 1...Int.max, "positive")
        if let level = try string(.logLevel) {
            guard let parsed = Logger.Level(rawValue: level.lowercased()) else {
                let levels = Logger.Level.allCases.map(\.rawValue).joined(separator: ", ")
                throw CLIError("\(source(.logLevel)) must be one of \(levels), not \"\(level.prefix(64))\"")
            }
            settings.logLevel = parsed
        }
        if let format = try string(.logFormat) {
            guard let parsed = LogFormat(rawValue: format.lowercased()) else {
                throw CLIError("\(source(.logFormat)) must be text or json, not \"\(format.prefix(64))\"")
            }
            settings.logFormat = parsed
        }
        if let text = try string(.database) {
            guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), scheme == "postgres" || scheme == "postgresql" else {
                throw CLIError("\(source(.database)) must be a postgres:// URL, not \"\(text.prefix(64))\"")
            }
            settings.database = url
        }
        return settings
    }

    /// The file's top-level keys, after checking that it is a readable JSON object of known keys whose
    /// values are strings or numbers.
    private static func checkedFileKeys(_ path: String, named option: String) throws -> Set<String> {
        let url = URL(fileURLWithPath: path)
        let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? nil
        guard let size else { throw CLIError("config file \(path) (\(option)) cannot be read: no such file") }
        guard size <= maximumConfigFileBytes else {
            throw CLIError("config file \(path) is larger than \(maximumConfigFileBytes) bytes")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw CLIError("config file \(path) cannot be read: \(error.localizedDescription)")
        }
        guard let object = try? JSONSerialization.jsonObject(with: data), let dictionary = object as? [String: Any] else {
            throw CLIError("config file \(path) is not a JSON object ({\"port\": 8080, …})")
        }
        let known = Set(Key.allCases.map(\.rawValue))
        for key in dictionary.keys.sorted() {
            guard known.contains(key) else {
                throw CLIError("config file \(path): unknown key \"\(key.prefix(64))\"; known keys: \(Key.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            let value = dictionary[key]!
            guard value is String || value is NSNumber else {
                throw CLIError("config file \(path): \(key) must be a string or a number")
            }
        }
        return Set(dictionary.keys)
    }
}
