public import Foundation
@_spi(Internal) import TensorIO

extension LabeledPhotos {
    /// The file extensions read as photos.
    public static let photoExtensions: Set<String> = ["jpg", "jpeg", "png"]

    /// A class from a folder: its JPEG and PNG files (by extension, any case; not in subfolders, not hidden;
    /// a link to such a file counts as the file), sorted by name.
    ///
    /// - Parameters:
    ///   - label: The class name.
    ///   - folder: The folder.
    ///   - limits: At most ``ClassifierTrainingLimits/maximumItemsPerClass`` photos; the folder is read no
    ///     further than one entry past that many entries of any kind.
    /// - Throws: `TensorIOError`: `TensorIOError/Code/io` when the folder cannot be read or is not a
    ///   folder; `TensorIOError/Code/invalidInput` when it holds no photo;
    ///   `TensorIOError/Code/limitExceeded` when it holds too many entries.
    public init(label: String, folder: URL, limits: ClassifierTrainingLimits = ClassifierTrainingLimits()) throws {
        guard case .directory = UntrustedFile.kind(of: folder) else {
            throw TensorIOError(.io, "\(folder.path) (class \"\(label)\") is not a folder")
        }
        guard let entries = FileManager.default.enumerator(
            at: folder, includingPropertiesForKeys: [.isRegularFileKey],
            options: [.skipsSubdirectoryDescendants, .skipsHiddenFiles, .skipsPackageDescendants]
        ) else {
            throw TensorIOError(.io, "\(folder.path) (class \"\(label)\") cannot be read")
        }
        var photos: [URL] = []
        var seen = 0
        // Every entry counts toward the bound, photo or not, so a folder of a million other files ends too.
        let most = limits.maximumItemsPerClass
        while let entry = entries.nextObject() as? URL {
            seen += 1
            guard seen <= most * 2 + 16 else {
                throw TensorIOError(.limitExceeded, "\(folder.path) (class \"\(label)\") holds more than \(most * 2 + 16) entries; a class takes at most \(most) photos")
            }
            // A dataset is often a folder of links to photos kept elsewhere: a link counts as what it leads to.
            guard Self.photoExtensions.contains(entry.pathExtension.lowercased()),
                  (try? entry.resolvingSymlinksInPath().resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true
            else { continue }
            photos.append(entry)
            guard photos.count <= most else {
                throw TensorIOError(.limitExceeded, "\(folder.path) (class \"\(label)\") holds more than \(most) photos (maximumItemsPerClass)")
            }
        }
        guard !photos.isEmpty else {
            throw TensorIOError(.invalidInput, "\(folder.path) (class \"\(label)\") holds no JPEG or PNG file")
        }
        self.init(label: label, photos: photos.sorted { $0.lastPathComponent < $1.lastPathComponent })
    }
}
