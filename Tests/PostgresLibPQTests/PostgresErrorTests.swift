import PostgresLibPQ
import Testing

@Suite struct PostgresErrorTests {
    @Test func descriptionNamesTheCodeButNotTheServerMessage() {
        var error = PostgresError(code: .uniqueViolation, message: "Key (email)=(alice@example.com) already exists.")
        error.detail = "alice@example.com"
        #expect(error.description == "PostgreSQL error 23505 (unique violation)")
        #expect(!error.description.contains("alice"))
        #expect(error.debugDescription.contains("alice@example.com"))
    }

    @Test(arguments: [
        PostgresError.Code.connectionFailed, .connectionLost, .poolTimeout, .poolShutDown,
        .adminShutdown, .crashShutdown, .cannotConnectNow, PostgresError.Code(raw: "08006"),
    ])
    func connectionCodesAreConnectionErrors(code: PostgresError.Code) {
        #expect(PostgresError(code: code).isConnectionError)
    }

    @Test(arguments: [PostgresError.Code.uniqueViolation, .serializationFailure, .syntaxError, .queryCanceled])
    func statementCodesAreNotConnectionErrors(code: PostgresError.Code) {
        #expect(!PostgresError(code: code).isConnectionError)
    }

    @Test func namedConstantsCarryTheirSQLSTATE() {
        #expect(PostgresError.Code.uniqueViolation.raw == "23505")
        #expect(PostgresError.Code.foreignKeyViolation.raw == "23503")
        #expect(PostgresError.Code.serializationFailure.raw == "40001")
        #expect(PostgresError.Code.deadlockDetected.raw == "40P01")
        #expect(PostgresError.Code(raw: "23505") == .uniqueViolation)
    }
}
