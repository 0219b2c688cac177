public import Foundation

/// The shared half of the fuzz targets in `Fuzz/`: each target is one function over bytes, which
/// libFuzzer calls (`make fuzz`, built with `-sanitize=fuzzer -DFUZZING`) or which the ordinary build runs
/// over the files named on its command line, to replay a corpus or a crash without the fuzzer.
public enum FuzzInput {
    /// The entry point of a fuzz target: libFuzzer's driver (with its usual options) when built for
    /// fuzzing, otherwise ``replay(_:_:)`` over the command line's files.
    ///
    /// - Parameter body: The target's function; it must never crash, hang or grow without bound.
    public static func main(_ body: @escaping (Data) -> Void) -> Never {
        #if FUZZING
        // SwiftPM links an executable's `main` to its own entry point, so libFuzzer's `main` is not
        // used: its driver is called from here instead. The callback is a C function, so the body goes
        // through a global.
        target = body
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        exit(runFuzzerDriver(&argc, &argv, fuzzerTestOneInput))
        #else
        replay(Array(CommandLine.arguments.dropFirst()), body)
        exit(0)
        #endif
    }

    #if FUZZING
    nonisolated(unsafe) fileprivate static var target: ((Data) -> Void)?
    #endif

    /// Runs `body` over the contents of every file named in `arguments` (folders are walked), printing
    /// one line per file; exits 1 when a file cannot be read.
    ///
    /// - Parameters:
    ///   - arguments: File or folder paths.
    ///   - body: The fuzz target's function.
    public static func replay(_ arguments: [String], _ body: (Data) -> Void) {
        var files: [URL] = []
        for path in arguments {
            let url = URL(fileURLWithPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                FileHandle.standardError.write(Data("\(path): not found\n".utf8))
                exit(1)
            }
            if isDirectory.boolValue {
                let children = (try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)) ?? []
                files += children.sorted { $0.path < $1.path }
            } else {
                files.append(url)
            }
        }
        for file in files {
            guard let data = try? Data(contentsOf: file) else {
                FileHandle.standardError.write(Data("\(file.path): cannot be read\n".utf8))
                exit(1)
            }
            body(data)
            print("\(file.lastPathComponent): ok")
        }
    }
}

#if FUZZING
/// libFuzzer's callback, also required by name by its runtime library.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzerTestOneInput(_ start: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    FuzzInput.target?(start.map { Data(bytes: $0, count: count) } ?? Data())
    return 0
}

@_silgen_name("LLVMFuzzerRunDriver")
private func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt
#endif
