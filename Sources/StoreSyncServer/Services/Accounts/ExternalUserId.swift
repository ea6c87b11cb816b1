/// The app backend's own user id, to which an account is bound (bring your own identity).
enum ExternalUserId {
    /// The most characters an id may have, counted as PostgreSQL's `length()` counts (code points).
    static let maxLength = 255

    /// The id, if it is 1 to 255 printable characters.
    ///
    /// Printable: no control character, no line or paragraph separator, nothing unassigned,
    /// private-use or a lone surrogate. The id is compared exactly (it is the backend's key).
    ///
    /// - Throws: ``RequestError`` naming `externalUserId`.
    static func validated(_ id: String) throws -> String {
        let scalars = id.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maxLength else {
            throw RequestError.invalid(
                field: "externalUserId", detail: "externalUserId must have 1 to \(maxLength) characters")
        }
        guard scalars.allSatisfy(isPrintable) else {
            throw RequestError.invalid(
                field: "externalUserId", detail: "externalUserId must hold only printable characters")
        }
        return id
    }

    private static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .lineSeparator, .paragraphSeparator, .unassigned, .privateUse, .surrogate: false
        default: true
        }
    }
}
