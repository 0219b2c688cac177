/// A `model.json` document being edited: a tree of `[String: Any]`, `[Any]`, strings, numbers, bools and
/// `NSNull`, as `JSONSerialization` makes it.
public typealias JSONObject = [String: Any]

extension Dictionary where Key == String, Value == Any {
    /// Reads or replaces a value deep inside the document, by a path such as `model.file` or
    /// `inputs[0].shape`. Setting `nil` removes an object key (or an array element).
    public subscript(path path: String) -> Any? {
        get { JSONPath(path).value(in: self) }
        set {
            var root: Any = self
            JSONPath(path).set(newValue, in: &root)
            self = root as! JSONObject
        }
    }
}

/// A parsed `a.b[2].c` path.
private struct JSONPath {
    enum Component {
        case key(String)
        case index(Int)
    }

    let components: [Component]

    init(_ text: String) {
        var components: [Component] = []
        for part in text.split(separator: ".") {
            var rest = Substring(part)
            if let bracket = rest.firstIndex(of: "[") {
                let key = rest[..<bracket]
                if !key.isEmpty { components.append(.key(String(key))) }
                rest = rest[bracket...]
                while rest.first == "[", let close = rest.firstIndex(of: "]") {
                    components.append(.index(Int(rest[rest.index(after: rest.startIndex)..<close])!))
                    rest = rest[rest.index(after: close)...]
                }
            } else {
                components.append(.key(String(rest)))
            }
        }
        self.components = components
    }

    func value(in root: Any) -> Any? {
        var current: Any? = root
        for component in components {
            switch component {
            case .key(let key): current = (current as? JSONObject)?[key]
            case .index(let index):
                guard let array = current as? [Any], array.indices.contains(index) else { return nil }
                current = array[index]
            }
        }
        return current
    }

    func set(_ newValue: Any?, in root: inout Any) {
        Self.set(newValue, in: &root, components[...])
    }

    private static func set(_ newValue: Any?, in node: inout Any, _ path: ArraySlice<Component>) {
        guard let first = path.first else { return }
        let rest = path.dropFirst()
        switch first {
        case .key(let key):
            var object = node as! JSONObject
            if rest.isEmpty {
                object[key] = newValue
            } else {
                var child: Any = object[key] ?? JSONObject()
                set(newValue, in: &child, rest)
                object[key] = child
            }
            node = object
        case .index(let index):
            var array = node as! [Any]
            if rest.isEmpty {
                if let newValue { array[index] = newValue } else { array.remove(at: index) }
            } else {
                var child = array[index]
                set(newValue, in: &child, rest)
                array[index] = child
            }
            node = array
        }
    }
}
