import Foundation

/// What an email and a password must be, with a message a user can act on.
enum CredentialRules {
    /// Trimmed and lower-cased: emails are unique case-insensitively.
    static func normalize(email: String) -> String {
        email.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
    }

    /// The longest email: RFC 5321 limits a forward path to 256 bytes, two of them the angle
    /// brackets around the address.
    static let maxEmailBytes = 254
    /// The longest password: bcrypt reads no further.
    static let maxPasswordBytes = 72

    /// Why the email is not acceptable, if it is not.
    static func problem(withEmail email: String) -> String? {
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        guard email.utf8.count <= maxEmailBytes, parts.count == 2, !parts[0].isEmpty, parts[1].contains("."),
            !parts[1].hasPrefix("."), !parts[1].hasSuffix("."),
            !email.contains(where: { $0.isWhitespace || $0.isNewline }), !containsControlCharacter(email)
        else { return "enter an email address such as name@example.com" }
        return nil
    }

    /// Why the password is not acceptable, if it is not.
    ///
    /// bcrypt reads only the first 72 bytes, so longer passwords would silently be cut.
    /// bcrypt also stops at a NUL byte: a password holding one would be checked only up to it.
    static func problem(withPassword password: String, email: String) -> String? {
        if password.utf8.contains(0) { return "the password must not contain the NUL character (U+0000)" }
        if password.count < 10 { return "the password needs at least 10 characters" }
        if password.utf8.count > maxPasswordBytes { return "the password may have at most 72 bytes (bcrypt's limit)" }
        if Set(password).count < 4 { return "the password needs at least 4 different characters" }
        if password.lowercased() == email { return "the password must not be the email" }
        return nil
    }

    /// The most a device name may have, in Unicode code points: the unit PostgreSQL's
    /// `length()` counts in the column's check, so whatever passes here fits there.
    static let maxDeviceNameLength = 200

    /// Why the device name (already trimmed) is not acceptable, if it is not.
    static func problem(withDeviceName name: String) -> String? {
        if name.unicodeScalars.count > maxDeviceNameLength {
            return "deviceName may have at most \(maxDeviceNameLength) characters (Unicode code points)"
        }
        if containsControlCharacter(name) { return "deviceName must not contain control characters" }
        return nil
    }

    /// Refuses sign-in fields no account can have — an email or a password longer than sign-up
    /// accepts — before anything is counted, looked up or hashed. The sizes alone say nothing
    /// about which accounts exist.
    ///
    /// - Throws: ``RequestError/invalid(field:detail:)`` naming the field.
    static func checkSignInSizes(email: String, password: String) throws {
        if email.utf8.count > maxEmailBytes {
            throw RequestError.invalid(field: "email", detail: "email may have at most \(maxEmailBytes) bytes")
        }
        if password.utf8.count > maxPasswordBytes {
            throw RequestError.invalid(field: "password", detail: "password may have at most \(maxPasswordBytes) bytes")
        }
    }

    /// Whether text holds a control character (U+0000–U+001F, U+007F–U+009F): never part of an
    /// email or a device name, and PostgreSQL cannot store U+0000 at all.
    static func containsControlCharacter(_ text: String) -> Bool {
        text.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }
}
