import Foundation
import PostgresLibPQ
import StoreSyncCore

extension SyncTransaction {
    /// Writes the plan's ownership changes: other accounts locked in one statement (in id
    /// order), all moves in four (versions and renewal infos, copied then deleted), and every
    /// owner row not inserted with its owner already in one.
    func writeOwnership(_ plan: Plan) async throws {
        var others = plan.accountsToLock
        others.remove(presenter)
        try await accounts.lockVersions(Array(others), on: connection)
        // Every copy reads its source before any deletion, whichever accounts the moves link.
        let moves = plan.moves.map { (originalTransactionId: $0.originalTransactionId, from: $0.from, to: $0.to) }
        try await transactions.copyChains(moves, on: connection)
        try await transactions.deleteChains(moves, on: connection)
        try await ownership.setOwners(
            plan.newOwners.filter { plan.ownersWritten[$0.originalTransactionId] != $0 }, on: connection)
    }

    /// Takes, in one statement, the signed versions Server Notifications kept for the purchases
    /// the plan claims before any account held them; each goes to the account claiming it once
    /// verified again.
    ///
    /// A purchase whose owner row this transaction created has none: an unclaimed version
    /// references its purchase's owner row (migration 0012), so that row existed before. A
    /// first restore or upload of new purchases claims only those, and looks for nothing.
    func takeUnclaimed(claimedIn plan: Plan) async throws -> [KeptVersion] {
        let claims = plan.claims.filter { plan.ownersWritten[$0.originalTransactionId] == nil }
        guard !claims.isEmpty else { return [] }
        let claimant = Dictionary(claims, uniquingKeysWith: { first, _ in first })
        return try await notifications.takeUnclaimed(Array(claimant.keys), on: connection).compactMap { kept in
            claimant[kept.originalTransactionId].map {
                KeptVersion(accountId: $0, kind: kept.kind, signedPayload: kept.signedPayload)
            }
        }
    }

    /// Stores the planned versions (those that would change nothing of the presenter's ledger
    /// left out), copies the owner's versions to the accounts that start sharing a purchase, and
    /// stores the latest renewal infos: every write but the events and the version bumps, which
    /// ``finish(_:endingTransaction:)`` makes.
    ///
    /// - Parameters:
    ///   - plan: The writes.
    ///   - before: What the presenter held at the version its lock holds.
    ///   - expected: The versions insert encoded ahead (``encodeExpectedInsert(_:presenter:before:)``),
    ///     used if the plan stores exactly those versions.
    /// - Returns: The versions stored, the presenter's ledger afterwards and the version
    ///   finishing gives it, and what finishing writes.
    func store(
        _ plan: Plan, before: AccountHoldings, expected: TransactionRepository.EncodedInsert? = nil
    ) async throws -> Stored {
        var changed = plan.changed
        let versions = Self.unstored(plan.versions, presenter: presenter, before: before.ledger)
        let latestRenewalInfos = Self.latestRenewalInfos(plan.renewalInfos)
        let rowsFromElsewhere = latestRenewalInfos.contains { $0.accountId == presenter }
            || plan.moves.contains { $0.from == presenter || $0.to == presenter }
            || plan.shares.contains { $0.to == presenter }
        // Versions routed to other accounts (by their token) are announced to those accounts,
        // against what each held of the purchase before; rare, so read only when there are any.
        let routed = Self.routedChains(versions, presenter: presenter)
        let routedBefore = try await transactions.chains(routed, on: connection)
        // Worked out while PostgreSQL stores the versions, for what nearly every sync that stores
        // any leaves: the presenter's versions only, each of them stored.
        let onlyOwnVersions = !versions.isEmpty && !rowsFromElsewhere && routed.isEmpty
        async let ifEveryVersionStored = onlyOwnVersions
            ? Self.ledger(before.ledger, storing: versions.lazy.map(\.record)) : nil
        let inserted = try await transactions.insert(versions, encoded: expected, on: connection)
        for key in inserted { changed.insert(key.accountId) }
        // After the presented versions, so those stay this restore's own (`accepted`).
        let shares = plan.shares.map { (originalTransactionId: $0.originalTransactionId, from: $0.from, to: $0.to) }
        try await transactions.copyChains(shares, on: connection)
        for share in shares { changed.insert(share.to) }
        try await renewals.store(latestRenewalInfos, on: connection)

        let after = try await presenterLedger(
            before: before.ledger, inserted: inserted, from: versions, rowsFromElsewhere: rowsFromElsewhere,
            ifEveryVersionStored: await ifEveryVersionStored)
        var revocations = Self.revocationEvents(account: presenter, before: before.ledger, after: after, inserted: inserted)
        if inserted.contains(where: { $0.accountId != presenter }) {
            let routedAfter = try await transactions.chains(routed, on: connection)
            for (chain, account) in routed {
                revocations += Self.revocationEvents(
                    account: account, before: Ledger(records: routedBefore[account]?[chain] ?? []),
                    after: Ledger(records: routedAfter[account]?[chain] ?? []), inserted: inserted)
            }
        }
        // The presenter's version row is locked since the transaction started, so nobody else
        // moves it before the bump, which adds one.
        return Stored(
            inserted: inserted, ledger: after, version: changed.contains(presenter) ? before.version + 1 : before.version,
            events: plan.events + revocations, changed: changed, moves: plan.moves)
    }

    /// Appends the events and bumps the version of every account that changed: the last writes.
    ///
    /// When the writes change no account but the presenter's (most restores and uploads), the
    /// statement carries the transaction's end: one round trip fewer inside the account's lock.
    /// The presenter's version row is locked since the transaction started, so the bump cannot
    /// miss it; another account's row may have gone meanwhile (a deletion), and the transaction
    /// must stay open to roll back then.
    ///
    /// - Parameters:
    ///   - stored: What ``store(_:before:expected:)`` left.
    ///   - endingTransaction: Whether these writes are the transaction's last statements; when
    ///     they end it, nothing may run in it afterwards.
    /// - Returns: Every account whose version changed, with its new version; the presenter's,
    ///   when it changed, is ``Stored/version``.
    func finish(_ stored: Stored, endingTransaction: Bool) async throws -> [UUID: Int64] {
        let newVersions = try await events.append(
            stored.events, bumpingVersionsOf: stored.changed,
            endingTransaction: endingTransaction && stored.changed.isSubset(of: [presenter]), on: connection)
        // Every test that syncs checks the version worked out before the bump, which the answer
        // is signed with, against the one the bump gave.
        assert(
            (newVersions[presenter] ?? stored.version) == stored.version,
            "the presenter's version \(newVersions[presenter] ?? -1) is not the \(stored.version) worked out")
        return newVersions
    }

    /// The presenter's ledger after the writes, as reading it back would give it.
    ///
    /// When nothing wrote the presenter's rows (a restore of what it holds already), the ledger
    /// at the version locked at the start. When only versions it presented did (most restores),
    /// that ledger merged with each inserted version as its row reads back: the ledger is the
    /// merge of every row the account holds, the merge's order is total, and the account's lock
    /// keeps every other writer's rows out until this transaction ends; reading 10,000 rows
    /// back cost a round trip and a second copy of them at a large restore's peak of memory.
    /// Otherwise (a renewal info, a move or a share brought rows this transaction never held),
    /// read back.
    ///
    /// - Parameters:
    ///   - before: The ledger at the version the lock holds.
    ///   - inserted: The keys of the versions stored now.
    ///   - versions: The versions sent to be stored, in the order sent.
    ///   - rowsFromElsewhere: Whether other writes than `versions` reached the presenter's rows.
    ///   - ifEveryVersionStored: The ledger worked out ahead for `versions` all the presenter's
    ///     and every one stored, if it was.
    private func presenterLedger(
        before: Ledger, inserted: Set<VersionKey>, from versions: [(accountId: UUID, record: TransactionRecord)],
        rowsFromElsewhere: Bool, ifEveryVersionStored: Ledger?
    ) async throws -> Ledger {
        guard !rowsFromElsewhere else { return try await transactions.ledger(of: presenter, on: connection) }
        let after: Ledger
        if let ifEveryVersionStored, inserted.count == versions.count {
            // Each inserted key is one of the versions sent: as many keys as versions means each
            // version had a key of its own, and each was stored.
            after = ifEveryVersionStored
        } else {
            let ownInserted = inserted.filter { $0.accountId == presenter }
            guard !ownInserted.isEmpty else { return before }
            // One version sent per inserted key, or the keys the insert returns cannot tell which
            // of those sent under one key were stored (a later one conflicts, unless their signing
            // dates are apart by less than the key's millisecond): then they are read back.
            let stored = versions.compactMap { version -> TransactionRecord? in
                guard version.accountId == presenter,
                    ownInserted.contains(VersionKey(accountId: presenter, record: version.record))
                else { return nil }
                return version.record
            }
            guard stored.count == ownInserted.count else { return try await transactions.ledger(of: presenter, on: connection) }
            after = Self.ledger(before, storing: stored)
        }
        #if DEBUG
            // Every test that restores checks the ledger worked out against the stored rows.
            let read = try await transactions.ledger(of: presenter, on: connection)
            assert(after == read, "the ledger worked out after the writes differs from the stored one: \(after) against \(read)")
        #endif
        return after
    }

    /// `before` merged with `records` as their rows read back.
    private static func ledger(_ before: Ledger, storing records: some Sequence<TransactionRecord>) -> Ledger {
        before.merging(Ledger(records: records.map(TransactionRow.readBack)))
    }

    /// The versions insert ``store(_:before:expected:)`` makes when every presented version is
    /// stored with the presenter, as the plan has it for a purchase the presenter keeps, takes
    /// or shares (nearly every restore): encoded before the plan exists, while PostgreSQL
    /// decides the owners, so that storing need not wait for it.
    ///
    /// - Parameters:
    ///   - chains: The verified records presented, by purchase.
    ///   - presenter: The account presenting them.
    ///   - before: The presenter's ledger at the version its lock holds.
    static func encodeExpectedInsert(
        _ chains: [String: [TransactionRecord]], presenter: UUID, before: Ledger
    ) -> TransactionRepository.EncodedInsert {
        // In the plan's order, each chain's records in turn.
        let versions = inPlanOrder(chains).flatMap { _, records in records.map { (accountId: presenter, record: $0) } }
        return TransactionRepository.encodeInsert(unstored(versions, presenter: presenter, before: before))
    }

    /// The planned versions less those that would change nothing of the presenter's ledger:
    /// those it shows stored already, and receipt versions that do not replace what it holds.
    ///
    /// A stored version would conflict and change nothing; leaving it out spares PostgreSQL
    /// parsing it (a repeated restore re-sends every JWS, megabytes for a thousand entries).
    /// The ledger is the one at the version the account's lock holds and has whole stored
    /// versions, so a key found there is a row of the table.
    ///
    /// A receipt states no signing date, so each verifyReceipt answer makes a version with a
    /// new `signedDate` or `verifiedAt` (when Apple answered): the same receipt sent again, or one that says
    /// nothing the held version does not, is left out rather than stored as one more row that
    /// bumps the account's version; so is one that loses the merge to the held version (a JWS
    /// always wins). It is answered `known`. Versions for other accounts are all written.
    static func unstored(
        _ versions: [(accountId: UUID, record: TransactionRecord)], presenter: UUID, before: Ledger
    ) -> [(accountId: UUID, record: TransactionRecord)] {
        let stored = Set(before.records.map { VersionKey(accountId: presenter, record: $0) })
        guard !stored.isEmpty else { return versions }
        return versions.filter { version in
            guard version.accountId == presenter else { return true }
            if stored.contains(VersionKey(accountId: presenter, record: version.record)) { return false }
            guard case .receipt = version.record.evidence, let held = before[version.record.transactionId] else { return true }
            return TransactionRecord.isPreferred(version.record, over: held) && !Self.statesTheSame(version.record, as: held)
        }
    }

    /// Whether two versions of a transaction state the same facts, whenever and however they
    /// were vouched for.
    static func statesTheSame(_ version: TransactionRecord, as other: TransactionRecord) -> Bool {
        func facts(_ record: TransactionRecord) -> TransactionRecord {
            var facts = record
            facts.signedDate = .distantPast
            facts.evidence = .claim
            facts.signedTransaction = nil
            return facts
        }
        return facts(version) == facts(other)
    }

    /// The latest renewal info per account and purchase, by the ledger's own merge law.
    static func latestRenewalInfos(_ infos: [(accountId: UUID, info: RenewalInfo)]) -> [(accountId: UUID, info: RenewalInfo)] {
        var ledgers: [UUID: Ledger] = [:]
        for (account, info) in infos { ledgers[account, default: Ledger()].merge(info) }
        return ledgers.flatMap { account, ledger in ledger.renewalInfos.map { (account, $0) } }
    }

    /// `revoked` and `revocationReversed` events for transactions whose merged version changed
    /// revocation state: one the account held before, or one first stored now (`inserted`). A
    /// transaction that reached the account by a copy (a purchase moved or shared to it) is not
    /// news: its refund was announced to the account that held it then.
    static func revocationEvents(account: UUID, before: Ledger, after: Ledger, inserted: Set<VersionKey>) -> [NewEvent] {
        after.records.compactMap { record in
            let held = before[record.transactionId]
            guard held != nil || inserted.contains(VersionKey(accountId: account, record: record)) else { return nil }
            let wasRevoked = held?.isRevoked ?? false
            guard wasRevoked != record.isRevoked else { return nil }
            return NewEvent(
                accountId: account, kind: record.isRevoked ? .revoked : .revocationReversed,
                originalTransactionId: record.originalTransactionId, transactionId: record.transactionId,
                reason: record.isRevoked
                    ? "Apple revoked it (reason \(record.revocationReason.map { String($0.rawValue) } ?? "unstated"))"
                    : "Apple reversed the refund")
        }
    }

    /// The purchases of versions stored for other accounts than the presenter, each with its account.
    static func routedChains(_ versions: [(accountId: UUID, record: TransactionRecord)], presenter: UUID)
        -> [(originalTransactionId: String, accountId: UUID)]
    {
        var seen: [UUID: Set<String>] = [:]
        return versions.compactMap { version in
            let chain = version.record.originalTransactionId
            guard version.accountId != presenter, seen[version.accountId, default: []].insert(chain).inserted else { return nil }
            return (chain, version.accountId)
        }
    }
}
