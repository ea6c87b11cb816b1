/// A ``KeyValueStore`` that keeps what it holds on this device only: where
/// ``StoreSyncClient`` keeps the session, whose bearer token must never leave the device.
///
/// The session store is a separate parameter of the client, so the token stays apart from the
/// purchase cache whatever store the cache uses. Conforming: `KeychainStore` (Apple
/// platforms, the default there), ``FileStore`` and ``InMemoryStore`` (the default elsewhere:
/// the user signs in at every launch). `UbiquitousStore` and ``UserDefaultsStore`` do not
/// conform on purpose: iCloud key-value storage copies everything to the user's other devices,
/// and `UserDefaults` is a plain, unprotected file in the app's container.
///
/// Conform a store of your own only when it never copies its contents off the device (no
/// iCloud, no synchronizable Keychain items, no server).
public protocol SessionStore: KeyValueStore {}
