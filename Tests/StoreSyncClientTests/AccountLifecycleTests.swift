import Foundation
import StoreSyncAPI
@testable import StoreSyncClient
import StoreSyncCore
import StoreSyncTesting
import Testing

/// The client's side of the account lifecycle: deletion wipes the device's cache of the account,
/// the password and the devices are managed from the app, and a session the app's backend minted
/// is adopted like a sign-in.
@Suite struct AccountLifecycleTests {
    @Test func deletingTheAccountSignsOutAndWipesItsCache() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)
            let partition = CachePartition.account(session.accountId).keyPrefix
            #expect(try !device.store.keys(withPrefix: partition).isEmpty)

            try await device.client.deleteAccount(password: TestAccount.password)

            #expect(await device.client.session == nil)
            #expect(try device.store.keys(withPrefix: partition).isEmpty)
            #expect(try device.store.data(forKey: CacheKeys.session) == nil)
            #expect(await device.client.isEntitled(to: "premium") == false)
            #expect(try await server.accountRow(session.accountId)?.deleted == true)
        }
    }

    @Test func aWrongPasswordDeletesNothingHereOrThere() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            _ = try await device.client.record(signedTransaction: TestPurchase.buy(TestCatalog.lifetime, on: server).jws)

            do {
                try await device.client.deleteAccount(password: "definitely not it")
                Issue.record("a wrong password deleted the account")
            } catch StoreSyncClientError.invalidInput(let problem) {
                #expect(problem.field == "password")
            }

            #expect(await device.client.session == session)
            #expect(await device.client.isEntitled(to: "premium"))
            #expect(try await server.accountRow(session.accountId)?.deleted == false)
        }
    }

    @Test func offlineTheAccountAndItsCacheStay() async throws {
        try await withLiveServer { server in
            let device = TestDevice(server: server)
            let session = try await device.client.signUp(email: TestAccount.email(), password: TestAccount.password)
            device.transport.isOffline = true

            await #expect(throws: StoreSyncClientError.offline) {
                try await device.client.deleteAccount(password: TestAccount.password)
            }
            #expect(await device.client.session == session)
        }
    }

    @Test func changingThePasswordSignsTheOtherDevicesOut() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            let tablet = TestDevice(server: server)
            try await phone.client.signUp(email: email, password: TestAccount.password, deviceName: "iPhone")
            try await tablet.client.signIn(email: email, password: TestAccount.password, deviceName: "iPad")

            try await phone.client.changePassword(current: TestAccount.password, new: "another long passphrase")

            await #expect(throws: StoreSyncClientError.unauthorized) { try await tablet.client.refresh() }
            _ = try await phone.client.refresh()
            try await tablet.client.signIn(email: email, password: "another long passphrase")
        }
    }

    @Test func theDeviceListAndSigningALostDeviceOut() async throws {
        try await withLiveServer { server in
            let email = TestAccount.email()
            let phone = TestDevice(server: server)
            let lost = TestDevice(server: server)
            let phoneSession = try await phone.client.signUp(email: email, password: TestAccount.password, deviceName: "iPhone")
            server.clock.advance(by: 60)
            let lostSession = try await lost.client.signIn(email: email, password: TestAccount.password, deviceName: "old iPad")

            let devices = try await phone.client.sessions()
            #expect(devices.map(\.deviceId) == [phoneSession.deviceId, lostSession.deviceId])
            #expect(devices.map(\.current) == [true, false])

            try await phone.client.signOut(deviceId: lostSession.deviceId)

            await #expect(throws: StoreSyncClientError.unauthorized) { try await lost.client.refresh() }
            #expect(try await phone.client.sessions().map(\.deviceId) == [phoneSession.deviceId])
            try await phone.client.signOut(deviceId: phoneSession.deviceId)
            #expect(await phone.client.session == nil)
        }
    }

    @Test func anAdoptedSessionWorksLikeASignedInOneAndIsDeletedWithoutAPassword() async throws {
        try await withLiveServer { server in
            let minted = try await server.mintSession(forExternalUser: "app-user-9", adminKey: server.adminKey, deviceName: "iPhone")
            let device = TestDevice(server: server)

            let session = try await device.client.adoptSession(minted)

            #expect(session.accountId == minted.accountId && session.email == nil)
            let bought = TestPurchase.buy(TestCatalog.lifetime, on: server, token: session.appAccountToken)
            #expect(try await device.client.record(signedTransaction: bought.jws) == .acknowledged(
                Verdict(originalTransactionId: bought.record.originalTransactionId, transactionId: bought.record.transactionId,
                    verdict: .accepted, productId: TestCatalog.lifetime)))
            #expect(await device.client.isEntitled(to: "premium"))
            let relaunched = device.relaunched(on: server)
            #expect(await relaunched.client.session == session)

            try await relaunched.client.deleteAccount(password: nil)
            #expect(await relaunched.client.session == nil)
        }
    }
}
