internal import CLiteRT
internal import CRuntimeLoader
internal import CTensorFlow
import Foundation
import Testing
import TensorIOTestSupport

/// The one dlopen loader behind both runtimes (CRuntimeLoader): it fills every required function, leaves a
/// missing optional one `nil`, and otherwise fails with one line naming the library or the symbol. The C
/// library (`libc.so.6`, by name through the system's search path) stands in for a runtime.
@Suite("Runtime library loader")
struct RuntimeLoaderTests {
    static let cLibrary = "libc.so.6"

    /// Two function pointers, as a runtime's table holds them.
    private struct Table {
        var first: UnsafeRawPointer?
        var second: UnsafeRawPointer?
    }

    /// What `tio_runtime_load` returned for a two-slot table, and the message it wrote.
    private static func load(
        _ path: String, required: [String], optional: [String] = []
    ) -> (table: Table?, message: String) {
        let names = (required + optional).map { strdup($0)! }
        defer { names.forEach { free($0) } }
        let slots = [MemoryLayout<Table>.offset(of: \.first)!, MemoryLayout<Table>.offset(of: \.second)!]
        let symbols = names.indices.map { TIORuntimeSymbol(name: names[$0], offset: slots[$0]) }
        let requiredSymbols = Array(symbols.prefix(required.count))
        let optionalSymbols = Array(symbols.dropFirst(required.count))
        var message = [CChar](repeating: 0, count: 512)
        let table = tio_runtime_load(
            path, MemoryLayout<Table>.size, requiredSymbols, requiredSymbols.count, optionalSymbols,
            optionalSymbols.count, &message, message.count)
        // Never freed, as a runtime's table: the library stays open for the process anyway.
        return (table?.load(as: Table.self), Self.text(message))
    }

    private static func text(_ message: [CChar]) -> String {
        String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test("every required function is filled, an optional one too when the library has it")
    func fillsTable() throws {
        let both = Self.load(Self.cLibrary, required: ["strlen"], optional: ["strcmp"])
        let table = try #require(both.table, "\(both.message)")
        #expect(table.first != nil && table.second != nil && table.first != table.second)
        #expect(both.message.isEmpty)
    }

    @Test("an optional function the library lacks stays nil, and loading succeeds")
    func optionalMissing() throws {
        let loaded = Self.load(Self.cLibrary, required: ["strlen"], optional: ["tio_no_such_function"])
        let table = try #require(loaded.table, "\(loaded.message)")
        #expect(table.first != nil)
        #expect(table.second == nil)
    }

    @Test("a required function the library lacks fails, naming the library and the function")
    func requiredMissing() {
        let loaded = Self.load(Self.cLibrary, required: ["strlen", "tio_no_such_function"])
        #expect(loaded.table == nil)
        #expect(loaded.message == "\(Self.cLibrary) does not export tio_no_such_function")
    }

    @Test("a file that is not a library fails with one line naming it once and saying why")
    func notALibrary() throws {
        try withTemporaryDirectory { folder in
            let file = folder.appendingPathComponent("libLiteRt.so")
            try Data("not a library".utf8).write(to: file)
            let loaded = Self.load(file.path, required: ["strlen"])
            #expect(loaded.table == nil)
            #expect(loaded.message.hasPrefix("cannot open \(file.path): "), "\(loaded.message)")
            #expect(loaded.message.components(separatedBy: file.path).count == 2, "\(loaded.message)")
            #expect(loaded.message.count > "cannot open \(file.path): ".count, "\(loaded.message)")
        }
    }

    @Test("each runtime's loader names the first of its functions a library lacks")
    func runtimeLoaders() {
        var message = [CChar](repeating: 0, count: 512)
        #expect(tio_litert_load(Self.cLibrary, &message, message.count) == nil)
        #expect(Self.text(message) == "\(Self.cLibrary) does not export LiteRtCreateEnvironment")
        message = [CChar](repeating: 0, count: 512)
        #expect(tio_tensorflow_load(Self.cLibrary, &message, message.count) == nil)
        #expect(Self.text(message) == "\(Self.cLibrary) does not export TF_Version")
    }
}
