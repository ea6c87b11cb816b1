import Foundation
import PostgresLibPQ
import Testing

@Suite struct PostgresQueryTests {
    @Test func interpolatedValuesBecomeNumberedPlaceholders() {
        let id = 42
        let name: String? = nil
        let query: PostgresQuery = "SELECT * FROM t WHERE id = \(id) AND name IS NOT DISTINCT FROM \(name) AND ok = \(true)"
        #expect(query.sql == "SELECT * FROM t WHERE id = $1 AND name IS NOT DISTINCT FROM $2 AND ok = $3")
        #expect(query.binds.count == 3)
    }

    @Test func literalWithoutInterpolationHasNoBinds() {
        let query: PostgresQuery = "SELECT 1"
        #expect(query.sql == "SELECT 1")
        #expect(query.binds.count == 0)
    }

    @Test func unescapedFragmentsAreSplicedWithoutBindingAndKeepPlaceholderNumbering() {
        let columns: StaticString = "id, name"
        let id = 7
        let query: PostgresQuery = "SELECT \(unescaped: columns) FROM t WHERE id = \(id) AND n = \(3)"
        #expect(query.sql == "SELECT id, name FROM t WHERE id = $1 AND n = $2")
        #expect(query.binds.count == 2)
    }

    @Test func unsafeSQLIsTakenVerbatim() {
        let query = PostgresQuery(unsafeSQL: "SELECT '$1'")
        #expect(query.sql == "SELECT '$1'")
        #expect(query.binds.count == 0)
    }

    @Test func descriptionNeverShowsParameterValues() {
        let secret = "correct horse battery staple"
        let query: PostgresQuery = "SELECT \(secret)"
        #expect(!query.description.contains(secret))
        #expect(!String(reflecting: query.sql).contains(secret))
    }

    @Test func queriesWithTheSameTextAndValuesAreEqual() {
        let first: PostgresQuery = "SELECT \(1), \("a")"
        let second: PostgresQuery = "SELECT \(1), \("a")"
        let third: PostgresQuery = "SELECT \(2), \("a")"
        #expect(first == second)
        #expect(first != third)
    }
}
