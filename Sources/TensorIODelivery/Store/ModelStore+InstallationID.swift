#if Delivery  // built with the Delivery trait only (Package.swift)
import Foundation
import TensorIO

extension ModelStore {
    /// The file holding the store's installation id.
    static let installationIdFileName = "installation-id"

    /// This installation's identifier for rollouts (``DeviceAttributes/installationId``): a random UUID
    /// created the first time it is asked for and kept in `<directory>/installation-id`.
    ///
    /// It decides the device's percentage bucket and A/B arm, so it must stay the same: it does as long as
    /// the store's folder is kept. It identifies the installation, not the hardware or the user, and
    /// resets when the folder is deleted. Two processes asking at once get the same id (the file is created
    /// with `link(2)`, which never replaces an existing file).
    ///
    /// - Returns: The id, 36 characters.
    /// - Throws: `TensorIOError` (`TensorIOError.Code.io`) when the file cannot be read or written, or holds
    ///   something other than an id.
    public func installationId() throws -> String {
        let url = directory.appendingPathComponent(Self.installationIdFileName)
        if let existing = try readInstallationId(at: url) { return existing }
        let temporary = directory.appendingPathComponent(".installation-id-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: temporary) }
        do {
            try Data((UUID().uuidString.lowercased() + "\n").utf8).write(to: temporary, options: .atomic)
            try FileManager.default.linkItem(at: temporary, to: url)
        } catch {
            // Another process created it first: its id wins.
            if let existing = try readInstallationId(at: url) { return existing }
            throw TensorIOError(.io, "cannot create \(url.path): \(error.localizedDescription)")
        }
        guard let created = try readInstallationId(at: url) else {
            throw TensorIOError(.io, "\(url.path) vanished after it was created")
        }
        return created
    }

    /// The id in `url`; `nil` when there is no file.
    private func readInstallationId(at url: URL) throws -> String? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        // An id is 36 characters: read a little more to notice a file that is not one, never a whole file.
        let data = try FileReading.withHandle(reading: url) { handle in (try? handle.read(upToCount: 256)) ?? Data() }
        let text = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty, text.utf8.count <= 128,
              text.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "._-:".unicodeScalars.contains($0)) })
        else {
            throw TensorIOError(.io, "\(url.path) does not hold an installation id (1 to 128 characters from A-Z a-z 0-9 . _ - :); remove it to create a new one")
        }
        return text
    }
}
#endif
