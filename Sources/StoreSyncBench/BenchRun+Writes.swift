import Foundation

extension BenchRun {
    /// The restores of every size, each new one beside its floor, on this server and a second
    /// instance; the database is sized before and after, for what each restored purchase takes.
    func measureRestores(on server: BenchServer, into results: inout BenchResults) async throws {
        progress("vacuum and checkpoint before the restores")
        try await BenchSeeder(database: server.database, accounts: plan.accounts).settle()
        results.beforeRestores = try await DatabaseFootprint.read(from: server.database)
        progress("starting a second storesync on the same database (restores of what another instance stored)")
        let elsewhere = try await server.secondInstance(plan: plan, label: "second-instance")
        let floor: RestoreFloor
        do {
            floor = try await RestoreFloor.make(workspace: workspace, database: server.database)
        } catch {
            await elsewhere.stop()
            throw error
        }
        progress("restores of \(plan.restoreSizes.map(String.init).joined(separator: ", ")) entries, each new one beside its floor")
        do {
            results.restores = try await RestoreBench(
                server: server.process, elsewhere: elsewhere.process, floor: floor, workspace: workspace
            ).run(sizes: plan.restoreSizes)
        } catch {
            await floor.shutdown()
            await elsewhere.stop()
            throw error
        }
        await floor.shutdown()
        await elsewhere.stop()
        results.afterRestores = try await DatabaseFootprint.read(from: server.database)
    }

    /// Lookups at 16 connections under steady restores, notifications and sign-ins, right after
    /// a sweep of the hot set so the lookups start warm.
    func measureMixed(on server: BenchServer, after lastSweep: ContinuousClock.Instant?, into results: inout BenchResults)
        async throws
    {
        let load = MixedLoad(server: server, workspace: workspace, hotSet: plan.hotSet, seconds: plan.mixedSeconds)
        progress("mixed: signing up the restoring accounts and signing the requests")
        let requests = try await load.prepare()
        progress("mixed: warming the snapshot and session caches with \(plan.hotSet.count) accounts")
        _ = try await warm(Wrk(baseURL: server.baseURL, workspace: workspace), after: lastSweep)
        progress("mixed: \(plan.mixedSeconds) s of lookups at 16 connections beside restores, notifications and sign-ins")
        results.mixed = try await load.run(requests)
    }
}
