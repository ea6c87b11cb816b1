import Foundation
import PostgresLibPQ

/// SQL over `notifications` and `unclaimed_versions`.
struct NotificationRepository: Sendable {
    /// Marks a notification processed; `false` when it already was. Written in the same
    /// database transaction as its effects, so a failure leaves it unmarked for Apple's retry.
    func markProcessed(
        uuid: UUID, type: String, subtype: String?, originalTransactionId: String?, signedDate: Date,
        on connection: PostgresConnection
    ) async throws -> Bool {
        !(try await connection.query(
            """
            INSERT INTO notifications (notification_uuid, notification_type, subtype, original_transaction_id, signed_date)
            VALUES (\(uuid), \(type), \(subtype), \(originalTransactionId), \(signedDate))
            ON CONFLICT (notification_uuid) DO NOTHING
            RETURNING 1
            """
        ).isEmpty)
    }

    /// Whether a notification with this UUID was processed, by any server.
    func isProcessed(_ uuid: UUID, on connection: PostgresConnection) async throws -> Bool {
        !(try await connection.query("SELECT 1 FROM notifications WHERE notification_uuid = \(uuid)").isEmpty)
    }

    /// Keeps a signed version for a purchase no account holds yet, stored as
    /// ``SignedTextColumns`` splits it (its header in the same statement).
    func storeUnclaimed(
        originalTransactionId: String, kind: UnclaimedKind, signedDate: Date, signedPayload: String,
        on connection: PostgresConnection
    ) async throws {
        let signed = SignedTextColumns([signedPayload])
        try await connection.execute(
            """
            WITH headers AS (
                INSERT INTO jws_headers (header_sha256, header)
                SELECT * FROM unnest(\(signed.distinctHeaderDigests), \(signed.distinctHeaders))
                ON CONFLICT DO NOTHING
            )
            INSERT INTO unclaimed_versions (
                original_transaction_id, kind, signed_date, signed_payload, jws_header_sha256, jws_payload, jws_signature)
            VALUES (
                \(originalTransactionId), \(kind.rawValue), \(signedDate), \(signed.wholeTexts[0]), \(signed.headerDigests[0]),
                \(signed.payloads[0]), \(signed.signatures[0]))
            ON CONFLICT DO NOTHING
            """)
    }

    /// Removes and returns the unclaimed versions of purchases accounts now hold.
    func takeUnclaimed(_ originalTransactionIds: [String], on connection: PostgresConnection) async throws
        -> [(originalTransactionId: String, kind: UnclaimedKind, signedPayload: String)]
    {
        guard !originalTransactionIds.isEmpty else { return [] }
        return try await connection.query(
            """
            DELETE FROM unclaimed_versions WHERE original_transaction_id = ANY(\(originalTransactionIds))
            RETURNING original_transaction_id, kind,
                coalesce(signed_payload, storesync_jws(jws_header_sha256, jws_payload, jws_signature))
            """
        ).map { row in
            let (id, kind, payload) = try row.decode((String, String, String).self)
            return (id, try TransactionRow.column("kind", kind), payload)
        }
    }
}

/// What an unclaimed signed payload is.
enum UnclaimedKind: String, Sendable {
    case transaction
    case renewalInfo
}
