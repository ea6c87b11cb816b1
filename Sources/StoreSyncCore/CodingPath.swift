extension [any CodingKey] {
    /// A coding path as people write it, e.g. `entries[3].purchaseDate`: what an error names so
    /// a client can find the field in its own JSON.
    ///
    /// A key is an array position when it has an integer value and its text is that number or
    /// Foundation's `Index N`; a member whose key happens to have an integer value keeps its name.
    ///
    /// - Parameter topLevel: What to call the document itself, the empty path.
    /// - Returns: The dotted path, array positions in brackets.
    package func fieldPath(topLevel: String) -> String {
        var path = ""
        for key in self {
            if let index = key.intValue, key.stringValue.hasPrefix("Index") || key.stringValue == String(index) {
                path += "[\(index)]"
            } else {
                path += path.isEmpty ? key.stringValue : "." + key.stringValue
            }
        }
        return path.isEmpty ? topLevel : path
    }
}
