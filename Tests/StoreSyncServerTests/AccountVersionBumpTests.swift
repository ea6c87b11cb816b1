import Foundation
import PostgresLibPQ
import StoreSyncAPI
@testable import StoreSyncServer
import StoreSyncTesting
import Testing

/// A sync bumps the versions of every account it changed in one statement.
@Suite struct AccountVersionBumpTests {
    @Test func everyAccountIsBumpedOnceAndAMissingOneFailsTheWhole() async throws {
        try await withServer { server in
            let x = try await server.signUp().accountId
            let y = try await server.signUp().accountId
            let before = try await server.versions()
            let repository = AccountRepository()

            let bumped = try await server.database.withTransaction { try await repository.bumpVersions([x, y], on: $0) }
            #expect(bumped == [x: before[x]! + 1, y: before[y]! + 1])

            let missing = UUID()
            await #expect {
                try await server.database.withTransaction { try await repository.bumpVersions([x, missing], on: $0) }
            } throws: { error in
                if case StoreSyncError.accountMissing(let id) = error { return id == missing }
                return false
            }
            let after = try await server.versions()
            #expect(after[x] == bumped[x] && after[y] == bumped[y], "the failed bump rolled back")
        }
    }
}
