/// How the stand-in spoils one signed item it serves, so a client must refuse it.
public enum AppStoreServerAPIStandInTampering: Sendable, Hashable {
    /// Signed by the trusted test PKI for another bundle id (renewal info carries none, so for
    /// it this is the same as ``undecodable``).
    case foreignBundle
    /// Signed by a PKI the client does not trust.
    case untrustedSigner
    /// Signed by the trusted test PKI, but the payload is not Apple's JSON for the item.
    case undecodable
}

/// Which served item a tampering applies to.
enum AppStoreServerAPIStandInItem: Hashable {
    /// A transaction, by transaction id.
    case transaction(String)
    /// A renewal info, by original transaction id.
    case renewalInfo(String)
    /// A notification, by UUID.
    case notification(String)
}
