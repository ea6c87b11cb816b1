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

    @Test(arguments: [
        ("CREATE TABLE t (id int);\nCOMMIT;\nALTER TABLE t ADD c int;", "COMMIT"),
        ("begin; CREATE TABLE t (id int); end;", "BEGIN"),
        ("CREATE TABLE t (id int); START TRANSACTION ISOLATION LEVEL SERIALIZABLE;", "START TRANSACTION"),
        ("SAVEPOINT before; UPDATE t SET id = 1; ROLLBACK TO before;", "SAVEPOINT BEFORE"),
        ("UPDATE t SET id = 1; /* done */ Rollback;", "ROLLBACK"),
        ("PREPARE TRANSACTION 'x';", "PREPARE TRANSACTION"),
    ])
    func aStatementThatControlsTheTransactionIsFound(sql: String, statement: String) {
        #expect(MigrationStatements.transactionControl(in: sql) == statement)
    }

    @Test(arguments: [
        "DO $$ BEGIN UPDATE t SET id = 1; END $$;",
        "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $f$ BEGIN RETURN NEW; END $f$;",
        "CREATE FUNCTION g() RETURNS int LANGUAGE sql BEGIN ATOMIC SELECT 1; SELECT 2; END; SELECT g();",
        "SELECT CASE WHEN true THEN 1 ELSE 2 END; -- COMMIT;\n/* ROLLBACK; */ SELECT 'COMMIT;';",
        "CREATE TABLE \"commit\" (id int); SELECT * FROM \"commit\";",
        "PREPARE lookup (int) AS SELECT $1; DEALLOCATE lookup;",
        "CREATE TABLE begin_times (ended_at timestamptz);",
    ])
    func wordsThatAreNotStatementsAreNotTakenForOne(sql: String) {
        #expect(MigrationStatements.transactionControl(in: sql) == nil)
    }
}
