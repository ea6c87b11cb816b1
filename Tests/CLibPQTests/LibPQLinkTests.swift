import CLibPQ
import Testing

@Suite struct LibPQLinkTests {
    /// The pool hands connections to threads it owns; that is only sound on a thread-safe libpq.
    @Test func libpqIsThreadSafe() {
        #expect(PQisthreadsafe() == 1)
    }

    /// Pipeline mode and the SQLSTATE fields the wrapper relies on arrived in libpq 14.
    @Test func libpqIsAtLeastVersion14() {
        #expect(PQlibVersion() >= 140_000)
    }
}
