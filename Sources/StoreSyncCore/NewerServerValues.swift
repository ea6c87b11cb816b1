extension CodingUserInfoKey {
    /// Set to `true` on a decoder of what a StoreSync server wrote for a device (a snapshot, a
    /// sync answer, the device's cache of them): a value a newer server may send that this
    /// version does not know is then read as each type documents, instead of refusing the
    /// whole snapshot. An unknown ``AppStoreEnvironment`` reads as `production` and an unknown
    /// ``OwnershipType`` as `purchased` (the values an absent member takes, so what the server
    /// granted still grants), an unknown evidence kind as ``Evidence/unrecognized(kind:)``.
    ///
    /// A server reads a device's input without it: there, such a value is refused.
    package static let readsNewerServerValues = CodingUserInfoKey(rawValue: "storesync.readsNewerServerValues")!
}

extension Decoder {
    /// Whether ``Swift/CodingUserInfoKey/readsNewerServerValues`` is set.
    var readsNewerServerValues: Bool { userInfo[.readsNewerServerValues] as? Bool == true }
}

extension KeyedDecodingContainer {
    /// One of a closed set of wire names: `fallback` when the member is absent, or (for a
    /// decoder that ``Swift/CodingUserInfoKey/readsNewerServerValues``) a name this version
    /// does not know.
    ///
    /// - Throws: `DecodingError` for a value that is not a string, or an unknown name when the
    ///   decoder does not read newer values.
    func decodeKnown<Value: RawRepresentable<String> & Decodable>(
        _ type: Value.Type, forKey key: Key, fallback: Value, lenient: Bool
    ) throws -> Value {
        guard lenient else { return try decodeIfPresent(Value.self, forKey: key) ?? fallback }
        guard let text = try decodeIfPresent(String.self, forKey: key) else { return fallback }
        return Value(rawValue: text) ?? fallback
    }
}
