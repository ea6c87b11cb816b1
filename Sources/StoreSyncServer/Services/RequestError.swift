/// A request a service refuses as it stands: a value outside the service's rules, named so the
/// client can find it in what it sent. Nothing was changed.
enum RequestError: Error, Equatable {
    /// `field` (a path such as `entries`, or `nil` for the request as a whole) breaks a rule;
    /// `detail` says which, in words a client developer can act on.
    case invalid(field: String?, detail: String)

    /// A restore with more entries than the server takes (`STORESYNC_MAX_RESTORE_ENTRIES`).
    static func tooManyEntries(limit: Int) -> RequestError {
        .invalid(field: "entries", detail: "at most \(limit) entries per restore")
    }
}
