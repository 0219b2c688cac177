import Foundation

// What the side-by-side benchmark programs (detection, segmentation, audio and text classification) share
// besides the clock and the statistics: reading their command line, printing their one JSON line, and
// failing. Each had its own copies; the runners (Benchmarks/benchlib.py's run_json) read the line.

/// The command line after the program's name. The third argument must be a positive whole number (the runs
/// or rounds); otherwise prints `usage: <usage>` on stderr and exits with status 64.
public func benchmarkArguments(usage: String) -> (arguments: [String], count: Int) {
    let arguments = Array(CommandLine.arguments.dropFirst())
    guard arguments.count >= 3, let count = Int(arguments[2]), count > 0 else {
        FileHandle.standardError.write(Data("usage: \(usage)\n".utf8))
        exit(64)
    }
    return (arguments, count)
}

/// The argument after `name` (`--detector NAME`), or nil when `name` is not given.
public func stringOption(_ name: String, in arguments: [String]) -> String? {
    guard let index = arguments.firstIndex(of: name), index + 1 < arguments.count else { return nil }
    return arguments[index + 1]
}

/// The whole number after `name` (`--threads 2`), or nil when `name` is not given with one.
public func option(_ name: String, in arguments: [String]) -> Int? {
    stringOption(name, in: arguments).flatMap { Int($0) }
}

/// Prints the measurements as one line of JSON, keys sorted.
public func printJSON(_ measurements: [String: Any]) throws {
    let data = try JSONSerialization.data(withJSONObject: measurements, options: [.sortedKeys])
    print(String(decoding: data, as: UTF8.self))
}

/// Prints `<program>: <error>` on stderr and exits with status 1.
public func fail(_ program: String, _ error: any Error) -> Never {
    FileHandle.standardError.write(Data("\(program): \(error)\n".utf8))
    exit(1)
}
