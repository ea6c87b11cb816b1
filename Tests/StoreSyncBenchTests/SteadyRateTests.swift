import Testing

@testable import StoreSyncBench

/// The mixed load's schedule: Poisson arrivals at the route's mean rate, the same for a seed.
@Suite struct SteadyRateTests {
    @Test func everyRequestIsSentOnceWithinItsWindowInOrder() {
        let arrivals = SteadyRate.poissonArrivals(count: 200, perSecond: 2, seed: 2)
        #expect(arrivals.count == 200)
        #expect(arrivals == arrivals.sorted())
        #expect(arrivals.allSatisfy { (0..<100).contains($0) }, "200 requests at 2 per second fill 100 s")
    }

    @Test func aSeedFixesTheScheduleAndRoutesGetSchedulesOfTheirOwn() {
        let first = SteadyRate.poissonArrivals(count: 1_000, perSecond: 10, seed: 3)
        #expect(first == SteadyRate.poissonArrivals(count: 1_000, perSecond: 10, seed: 3))
        #expect(first != SteadyRate.poissonArrivals(count: 1_000, perSecond: 10, seed: 4))
    }

    /// No phase of a clock: gaps spread from next to nothing to several times the mean, as
    /// independent arrivals do (exponential gaps: ~10 % under a tenth of the mean, ~5 % over
    /// three times it), and each tenth of the window gets its share.
    @Test func gapsVaryAsIndependentArrivalsDo() {
        let arrivals = SteadyRate.poissonArrivals(count: 1_000, perSecond: 10, seed: 3)
        let gaps = zip(arrivals.dropFirst(), arrivals).map { $0 - $1 }
        let mean = 0.1
        let short = gaps.filter { $0 < mean / 10 }.count
        let long = gaps.filter { $0 > mean * 3 }.count
        #expect((50...150).contains(short), "\(short) gaps under a tenth of the mean")
        #expect((20...80).contains(long), "\(long) gaps over three times the mean")
        let perTenSeconds = Dictionary(grouping: arrivals) { Int($0 / 10) }.mapValues(\.count)
        #expect(perTenSeconds.keys.sorted() == Array(0..<10))
        #expect(perTenSeconds.values.allSatisfy { (70...130).contains($0) }, "\(perTenSeconds)")
    }

    /// The report's server p99 reads only answered requests; a failure is counted as an error
    /// with the client's time, not as a server time of zero.
    @Test func aSampleKeepsTheServersOwnTimeOnlyForAnAnsweredRequest() async {
        let answered = await SteadyRate.timed { SteadyRate.Answer(accepted: 100, serverMilliseconds: 12.5) }
        #expect(answered.serverMilliseconds == 12.5 && answered.accepted == 100 && answered.error == nil)
        let failed = await SteadyRate.timed { throw BenchError("/v1/restore answered 503") }
        #expect(failed.serverMilliseconds == nil && failed.accepted == 0)
        #expect(failed.error == "/v1/restore answered 503")
        let route = MixedLoad.Route(name: "restores", perSecond: 2, samples: [answered, failed])
        #expect(route.serverLatencies == [12.5])
        #expect(route.latencies.count == 2 && route.errors.count == 1)
    }

    @Test func nothingToSendIsAnEmptySchedule() {
        #expect(SteadyRate.poissonArrivals(count: 0, perSecond: 2, seed: 1).isEmpty)
        #expect(SteadyRate.poissonArrivals(count: 5, perSecond: 0, seed: 1).isEmpty)
    }
}
