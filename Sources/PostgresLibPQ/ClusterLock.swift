#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
internal import Foundation

/// Who answers for an embedded cluster's server: the one process (and object) holding an
/// exclusive `flock` on `<directory>/owner.lock`.
///
/// The owner stops the server when it is done; anyone else who finds the server running only
/// uses it (`storesync migrate` while `storesync serve` runs, a second server on the same
/// directory). The kernel releases the lock when its holder exits however it exits, so a
/// server left running by a process that crashed is adopted by the next one, which then stops
/// it.
final class ClusterLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Takes the lock of the cluster in `directory`, or answers `nil` when another holds it.
    static func acquire(in directory: URL) -> ClusterLock? {
        let descriptor = open(directory.appendingPathComponent("owner.lock").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
        return ClusterLock(descriptor: descriptor)
    }

    deinit {
        close(descriptor)
    }
}
