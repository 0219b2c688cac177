import Foundation

/// Where a command writes a file made from a photo (`detect --draw`, `segment --mask`): `DIR/NAME.EXT`,
/// NAME the photo's file name without its extension, and `NAME-2.EXT`, `NAME-3.EXT`… when photos share a
/// name, so none overwrites another.
enum PhotoFileName {
    /// The destination of the file made from the photo at `path`; records the name in `taken`.
    static func destination(for path: String, in folder: URL, extension fileExtension: String, taken: inout Set<String>) -> URL {
        let stem = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
        var name = "\(stem).\(fileExtension)"
        var number = 2
        while taken.contains(name) {
            name = "\(stem)-\(number).\(fileExtension)"
            number += 1
        }
        taken.insert(name)
        return folder.appendingPathComponent(name)
    }
}
