import Foundation

/// Internal invariants broken: never a client's fault, always logged and answered as 500.
enum StoreSyncError: Error, CustomStringConvertible {
    case accountMissing(UUID)
    case corruptColumn(String, String)

    var description: String {
        switch self {
        case .accountMissing(let id): "account \(id) has no version row"
        case .corruptColumn(let column, let value): "column \(column) holds an unknown value '\(value)'"
        }
    }
}
