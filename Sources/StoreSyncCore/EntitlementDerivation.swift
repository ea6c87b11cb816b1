public import Foundation

/// The entitlements a ledger grants at one moment: DESIGN §2's derivation, a pure function.
///
/// - Non-consumable: granted for life from the chain's purchase date, unless a verified
///   record of the chain is revoked.
/// - Auto-renewable: the newest non-revoked, non-upgraded record names the product; granted
///   while the greatest `expiresDate` of such records (extended by a grace period the renewal
///   info grants) is after `at`.
/// - Non-renewing: purchases of one entitlement stack end to end, each lasting its product's
///   catalog `durationSeconds`; revoked ones are skipped.
/// - Consumable: never an entitlement. Claims never grant. Unknown products grant nothing.
/// - Several sources of one entitlement id: lifetime beats any expiry, otherwise the latest
///   expiry; ties go to purchased over family-shared, then the smaller original transaction id.
///   A refunded or expired source never removes an entitlement another source still grants.
///
/// Revocations apply whatever `at` is; purchases made after `at` do not grant at `at`.
///
/// - Parameters:
///   - ledger: The account's ledger.
///   - catalog: The app's products.
///   - date: The moment to evaluate at; the domain never reads a clock.
/// - Returns: One entitlement per granted entitlement id, ordered by entitlement id (UTF-8 bytes).
public func entitlements(ledger: Ledger, catalog: Catalog, at date: Date) -> [Entitlement] {
    EntitlementResolver(ledger: ledger, catalog: catalog, at: date, explaining: false).resolve().entitlements
}

/// The entitlements a ledger grants at one moment, with an explanation for every purchase and
/// entitlement id the ledger mentions, granted or not.
///
/// The entitlements are exactly those of ``entitlements(ledger:catalog:at:)``.
///
/// - Parameters:
///   - ledger: The account's ledger.
///   - catalog: The app's products.
///   - date: The moment to evaluate at.
/// - Returns: The entitlements and their explanations.
public func explainEntitlements(ledger: Ledger, catalog: Catalog, at date: Date) -> EntitlementReport {
    EntitlementResolver(ledger: ledger, catalog: catalog, at: date, explaining: true).resolve()
}
