import AppStoreVerification
import Crypto
import Foundation
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The ES256 token the client sends, read back from the stand-in's log and checked here with
/// nothing but the key's public half.
@Suite struct ServerAPITokenTests {
    private struct Header: Decodable, Equatable {
        var alg: String
        var kid: String
        var typ: String
    }

    private struct Claims: Decodable, Equatable {
        var iss: String
        var iat: Int64
        var exp: Int64
        var aud: String
        var bid: String
    }

    /// Base64url, decoded with Foundation rather than the code under test.
    private static func bytes(_ part: Substring) throws -> Data {
        var base64 = part.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        return try #require(Data(base64Encoded: base64))
    }

    private static func decodePart<T: Decodable>(_ part: Substring, as type: T.Type) throws -> T {
        try JSONDecoder().decode(type, from: bytes(part))
    }

    private static func sentTokens(_ harness: ServerAPIHarness) async -> [String] {
        await harness.standIn.requests.compactMap(\.token)
    }

    @Test func tokenHasApplesHeaderAndClaimsAndVerifiesWithThePublicKey() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            _ = try await harness.client().transactionHistory(for: "5000")

            let token = try #require(await Self.sentTokens(harness).first)
            let parts = token.split(separator: ".", omittingEmptySubsequences: false)
            try #require(parts.count == 3)
            let key = harness.standIn.key
            #expect(try Self.decodePart(parts[0], as: Header.self) == Header(alg: "ES256", kid: key.keyId, typ: "JWT"))
            let claims = try Self.decodePart(parts[1], as: Claims.self)
            let now = Int64(ServerAPIHarness.start.timeIntervalSince1970)
            #expect(claims.iss == key.issuerId)
            #expect(claims.aud == "appstoreconnect-v1")
            #expect(claims.bid == Fixtures.bundleId)
            #expect(claims.iat == now)
            #expect(claims.exp > claims.iat && claims.exp - claims.iat <= 3600)

            let raw = try Self.bytes(parts[2])
            #expect(raw.count == 64)
            let ecdsa = try P256.Signing.ECDSASignature(rawRepresentation: raw)
            #expect(key.publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
            #expect(!P256.Signing.PrivateKey().publicKey.isValidSignature(ecdsa, for: Data("\(parts[0]).\(parts[1])".utf8)))
        }
    }

    @Test func tokenIsReusedWhileValidAndRenewedBeforeItExpires() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let client = try harness.client()
            _ = try await client.transactionHistory(for: "5000")
            harness.clock.advance(by: 20 * 60)
            _ = try await client.transactionHistory(for: "5000")
            // 30-minute tokens are renewed once less than 5 minutes are left.
            harness.clock.advance(by: 6 * 60)
            _ = try await client.transactionHistory(for: "5000")
            _ = try await client.transactionHistory(for: "5000")

            let tokens = await Self.sentTokens(harness)
            #expect(tokens.count == 4)
            #expect(tokens[0] == tokens[1])
            #expect(tokens[2] != tokens[1])
            #expect(tokens[3] == tokens[2])
            #expect(await harness.standIn.requests.allSatisfy { $0.tokenRefusal == nil })
        }
    }

    @Test func concurrentCallsShareOneToken() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let client = try harness.client()
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<8 {
                    group.addTask { _ = try await client.transactionHistory(for: "5000") }
                }
                try await group.waitForAll()
            }
            #expect(Set(await Self.sentTokens(harness)).count == 1)
        }
    }

    @Test func clockSetBackGetsAFreshTokenRatherThanOneIssuedInTheFuture() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            let client = try harness.client()
            _ = try await client.transactionHistory(for: "5000")
            harness.clock.advance(by: -10 * 60)
            _ = try await client.transactionHistory(for: "5000")

            let tokens = await Self.sentTokens(harness)
            #expect(tokens.count == 2)
            #expect(tokens[0] != tokens[1])
            #expect(await harness.standIn.requests.allSatisfy { $0.tokenRefusal == nil })
        }
    }

    @Test func expiredTokenIsRefusedAndSurfacesAsUnauthorized() async throws {
        try await ServerAPIHarness.run { harness in
            await harness.standIn.addTransactions([ServerAPIHarness.lifetime("5000")])
            // The client's clock is two hours slow: its fresh token expired an hour and a half ago.
            let slow = ServerAPIHarness.start.addingTimeInterval(-2 * 3600)
            let client = try harness.client(now: { slow })

            let error = await #expect(throws: AppStoreServerAPIError.self) {
                try await client.transactionHistory(for: "5000")
            }
            let key = harness.standIn.key
            #expect(error == .unauthorized(keyId: key.keyId, issuerId: key.issuerId, bundleId: Fixtures.bundleId))
            #expect(error.map { "\($0)" }?.contains(key.keyId) == true)
            let requests = await harness.standIn.requests
            #expect(requests.count == 1)
            #expect(requests.first?.tokenRefusal == "the token expired")
        }
    }

    @Test func tokenSignedWithAnotherKeyIsRefused() async throws {
        try await ServerAPIHarness.run { harness in
            let impostor = TestAppStoreAPIKey(keyId: harness.standIn.key.keyId, issuerId: harness.standIn.key.issuerId)
            let client = try harness.client(key: impostor)

            await #expect(throws: AppStoreServerAPIError.unauthorized(
                keyId: impostor.keyId, issuerId: impostor.issuerId, bundleId: Fixtures.bundleId)) {
                try await client.lookUpOrder("MK5TTTVWJH")
            }
            let refusal = await harness.standIn.requests.first?.tokenRefusal
            #expect(refusal == "the signature does not verify with the key's public half")
        }
    }
}
