internal import Foundation

/// Lends `strings` to C as a NULL-terminated `const char *const *`, valid only inside `body`.
func withCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafePointer<CChar>?>) throws -> R) rethrows -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    defer { copies.forEach { free($0) } }
    let pointers = copies.map { $0.map { UnsafePointer($0) } } + [nil]
    return try pointers.withUnsafeBufferPointer { buffer in
        try body(buffer.baseAddress!)
    }
}

/// Lends `strings` to C as a NULL-terminated `char *const *`, valid only inside `body`.
func withMutableCStringArray<R>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) throws -> R) rethrows -> R {
    let copies: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) } + [nil]
    defer { copies.forEach { free($0) } }
    return try copies.withUnsafeBufferPointer { buffer in
        try body(buffer.baseAddress!)
    }
}
