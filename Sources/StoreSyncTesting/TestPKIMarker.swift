public import SwiftASN1

/// Which marker extension a test certificate carries in place of Apple's.
public enum TestPKIMarker: Sendable, Hashable {
    /// Apple's marker for the certificate's position (leaf or intermediate).
    case apple
    /// No marker at all.
    case missing
    /// Another object identifier, e.g. the other position's marker.
    case other(ASN1ObjectIdentifier)
}
