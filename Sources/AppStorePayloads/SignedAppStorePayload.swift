package import Foundation

/// A payload Apple signs, with the date at which its certificates are judged.
package protocol SignedAppStorePayload: Decodable, Sendable {
    /// When Apple signed it; verification refuses a payload without one.
    var signingDate: Date? { get }
}

extension TransactionPayload: SignedAppStorePayload {
    package var signingDate: Date? { signedDate }
}

extension RenewalInfoPayload: SignedAppStorePayload {
    package var signingDate: Date? { signedDate }
}

extension NotificationPayload: SignedAppStorePayload {
    package var signingDate: Date? { signedDate }
}

extension Date {
    /// The span StoreSync stores (years 1970 to 9999): beyond it milliseconds overflow
    /// or mean nothing.
    package static let storableRange = Date(timeIntervalSince1970: 0)...Date(timeIntervalSince1970: 253_402_300_799)

    /// This date when it is storable.
    ///
    /// - Parameter field: The field name, for the message.
    /// - Returns: The date itself.
    /// - Throws: ``PayloadError/malformed(_:)`` when it is outside ``storableRange``.
    package func storable(_ field: String) throws(PayloadError) -> Date {
        guard Self.storableRange.contains(self) else { throw .malformed("\(field) is out of range") }
        return self
    }
}

extension Optional where Wrapped == Date {
    /// The date when present and storable, `nil` when absent.
    package func storable(_ field: String) throws(PayloadError) -> Date? {
        guard let date = self else { return nil }
        return try date.storable(field)
    }
}
