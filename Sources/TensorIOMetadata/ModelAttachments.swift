package import Foundation
import TensorIOArchive
import TensorIOModelFile
import TensorIOSupport

/// The associated files of a `.tflite` model: the zip archive that tflite-support's metadata writers
/// append to the model file (label lists, vocabularies, score-calibration parameters), which
/// ``TFLiteMetadata`` refers to by name.
///
/// The archive is read from the untrusted model bytes by TensorIO's bounded zip reader (stored and
/// deflate entries; sizes and CRC-32 checked against what is actually unpacked), with its offsets
/// counted from the start of the zip as Python's `zipfile` writes them when appending. A model without
/// an appended zip has no attachments; that is not an error.
///
/// Every file must be a plain file at the archive's top level: names with `/` or `\`, `..`, NUL, or an
/// empty name are refused, as are folders, links and a name given twice. Bounds (``Limits``) hold
/// against the bytes actually unpacked.
package struct ModelAttachments: Sendable, Hashable {
    /// Bounds on what reading the attachments may cost.
    package struct Limits: Sendable, Hashable {
        /// The most files (default 1,024).
        package var maximumFiles: Int
        /// The most bytes one file may unpack to (default 16 MiB).
        package var maximumFileBytes: UInt64
        /// The most bytes all files may unpack to together (default 64 MiB).
        package var maximumTotalBytes: UInt64
        /// The most seconds reading may take (default 60).
        package var timeLimit: Double

        /// Creates limits.
        ///
        /// - Parameters:
        ///   - maximumFiles: The most files (default 1,024).
        ///   - maximumFileBytes: The most bytes one file may unpack to (default 16 MiB).
        ///   - maximumTotalBytes: The most bytes all files may unpack to (default 64 MiB).
        ///   - timeLimit: The most seconds reading may take (default 60).
        package init(
            maximumFiles: Int = 1024, maximumFileBytes: UInt64 = 16 << 20, maximumTotalBytes: UInt64 = 64 << 20,
            timeLimit: Double = 60
        ) {
            self.maximumFiles = maximumFiles
            self.maximumFileBytes = maximumFileBytes
            self.maximumTotalBytes = maximumTotalBytes
            self.timeLimit = timeLimit
        }
    }

    /// The files' names, in the archive's order.
    package var names: [String]
    /// Each file's bytes, by name.
    package var files: [String: Data]

    /// No files.
    package init() {
        names = []
        files = [:]
    }

    /// Whether the model has no associated files.
    package var isEmpty: Bool { names.isEmpty }

    /// The bytes of the file called `name`, or `nil` when there is none.
    package subscript(name: String) -> Data? { files[name] }

    /// The associated files `metadata` names that the archive lacks, in the order the metadata names
    /// them: a model whose metadata refers to a missing file is reported this way rather than refused
    /// when reading, so a caller can decide whether the missing file matters (a label list does; a
    /// README may not).
    package func missingFiles(namedIn metadata: TFLiteMetadata) -> [String] {
        metadata.associatedFileNames.filter { files[$0] == nil }
    }

    /// Reads the zip archive appended to a model file.
    ///
    /// Call it on a model that `TFLiteModelVerifier.verify(_:limits:fileName:)` accepted; it reads only
    /// the bytes after the model's data and never outside `bytes`, whatever they hold.
    ///
    /// - Parameters:
    ///   - bytes: The whole model file.
    ///   - fileName: The file's name, used in messages.
    ///   - limits: Bounds on files, sizes and time.
    /// - Returns: The files, or no files when the model ends without a zip end record.
    /// - Throws: ``ModelFileError``: ``ModelFileErrorKind/invalidModelFile`` when the appended archive is
    ///   malformed, corrupt or holds a name or entry that is not allowed;
    ///   ``ModelFileErrorKind/limitExceeded`` past a bound of `limits`.
    package static func read(fromModel bytes: UnsafeRawBufferPointer, fileName: String, limits: Limits = Limits()) throws -> ModelAttachments {
        guard ZipReader.hasEndRecord(bytes) else { return ModelAttachments() }
        let name = "\(fileName): associated files"
        do {
            return try read(bytes, name: name, limits: limits)
        } catch let error as ArchiveError {
            // The archive is part of the model file: its problems are the model file's.
            throw ModelFileError(error.kind == .limitExceeded ? .limitExceeded : .invalidModelFile, error.message)
        }
    }

    private static func read(_ bytes: UnsafeRawBufferPointer, name: String, limits: Limits) throws -> ModelAttachments {
        let deadline = ArchiveDeadline(seconds: limits.timeLimit, settingName: "ModelAttachments.Limits.timeLimit")
        let readerLimits = ZipReader.Limits(
            maximumEntries: limits.maximumFiles, maximumEntryBytes: limits.maximumFileBytes,
            maximumUnpackedBytes: limits.maximumTotalBytes, settingsName: "ModelAttachments.Limits")
        let reader = try ZipReader(borrowing: bytes, name: name, limits: readerLimits, deadline: deadline, layout: .appended)
        var attachments = ModelAttachments()
        var declaredTotal: UInt64 = 0
        for entry in reader.entries {
            try check(entry, name: name)
            guard attachments.files[entry.path] == nil else {
                throw ModelFileError(.invalidModelFile, "\(name): the archive holds \"\(entry.path)\" twice")
            }
            // Refused from the headers before anything is unpacked; the reader then holds each entry to
            // its declared size.
            guard entry.uncompressedSize <= limits.maximumFileBytes else {
                throw ModelFileError(.limitExceeded, "\(name): \"\(entry.path)\" unpacks to \(entry.uncompressedSize) bytes, more than the limit of \(limits.maximumFileBytes) (ModelAttachments.Limits.maximumFileBytes)")
            }
            declaredTotal += entry.uncompressedSize
            guard declaredTotal <= limits.maximumTotalBytes else {
                throw ModelFileError(.limitExceeded, "\(name): the files unpack to more than the limit of \(limits.maximumTotalBytes) bytes (ModelAttachments.Limits.maximumTotalBytes), at \"\(entry.path)\"")
            }
            attachments.names.append(entry.path)
            attachments.files[entry.path] = Data()
        }
        var written: UInt64 = 0
        for entry in reader.entries {
            try deadline.check(name)
            var contents = Data(capacity: Int(entry.uncompressedSize))
            written += try reader.unpack(entry, alreadyWritten: written) { contents.append(contentsOf: $0) }
            attachments.files[entry.path] = contents
        }
        return attachments
    }

    /// Refuses entries that are not plain files with a plain name at the archive's top level.
    private static func check(_ entry: ZipEntry, name: String) throws {
        let path = entry.path
        guard entry.kind == .file else {
            throw ModelFileError(.invalidModelFile, "\(name): \"\(path)\" is not a plain file (folders, links and devices are not associated files)")
        }
        guard !path.isEmpty, path != ".", path != "..", !path.contains(".."),
              !path.contains("/"), !path.contains("\\"), !path.contains("\0")
        else {
            throw ModelFileError(.invalidModelFile, "\(name): the file name \"\(path)\" is not allowed (associated files have plain names, without /, \\, .. or NUL)")
        }
    }
}
