internal import CMalloc
import Foundation

/// The C allocator's settings for a server whose large requests (restores of thousands of JWS)
/// allocate and free tens of megabytes at once.
///
/// glibc gives each thread that meets contention an arena of its own, up to eight per core, and
/// keeps what is freed in them for reuse: memory a large request used on one thread stays
/// resident in that thread's arena, and the next large request, served on another thread, takes
/// fresh memory in another. The server runs many threads (event loops, the cooperative pool,
/// one per database connection), so its resident size grows with the number of arenas large
/// requests have passed through rather than with the largest request. Elsewhere these are
/// no-ops.
public enum HeapMemory {
    /// Arenas per core: enough that threads rarely wait on one another for the allocator.
    static let arenasPerCore = 1

    /// Limits the allocator to one arena per core (at least two), unless the operator set
    /// `MALLOC_ARENA_MAX`, which wins. Called once at start, before the server's threads run.
    public static func limitArenas() {
        #if canImport(Glibc)
        guard ProcessInfo.processInfo.environment["MALLOC_ARENA_MAX"] == nil else { return }
        let arenas = max(2, ProcessInfo.processInfo.activeProcessorCount * arenasPerCore)
        _ = mallopt(M_ARENA_MAX, Int32(clamping: arenas))
        #endif
    }

    /// Gives the free pages of every arena back to the operating system.
    static func trim() {
        #if canImport(Glibc)
        _ = malloc_trim(0)
        #endif
    }
}
