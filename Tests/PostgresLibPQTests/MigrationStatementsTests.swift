@testable import PostgresLibPQ
import Testing

@Suite struct MigrationStatementsTests {
    @Test func commentsAndWhitespaceRunsAreNotPartOfTheStatements() {
        let sql = """
            -- a table
            CREATE TABLE items (   -- its key
                id integer /* outer /* nested */ still outer */ PRIMARY KEY
            );
            """
        #expect(MigrationStatements.text(of: sql) == "CREATE TABLE items ( id integer PRIMARY KEY );")
    }

    @Test(arguments: [
        "SELECT '-- not a comment', 'it''s'",
        "SELECT \"odd -- name\" FROM t",
        "SELECT E'it\\'s -- still text'",
        "CREATE FUNCTION f() RETURNS int LANGUAGE sql AS $body$ SELECT 1 -- kept  in the body\n $body$",
        "SELECT $$ /* kept */ $$",
    ])
    func quotedTextIsKeptByteForByte(sql: String) {
        #expect(MigrationStatements.text(of: sql) == sql)
    }

    @Test func aParameterIsNotADollarQuote() {
        #expect(MigrationStatements.text(of: "SELECT $1 -- gone\n, $2") == "SELECT $1 , $2")
    }

    @Test func editingAStatementChangesTheText() {
        #expect(MigrationStatements.text(of: "SELECT 1") != MigrationStatements.text(of: "SELECT 2"))
    }
}
