import SwiftASN1
import X509

/// A swift-certificates policy for App Store chains: exactly leaf → intermediate → root,
/// with Apple's marker extensions on the leaf and the intermediate.
///
/// It runs beside ``X509/RFC5280Policy`` (validity, basic constraints, name constraints),
/// so a chain that meets both is the shape Apple signs with.
struct AppStoreChainPolicy: VerifierPolicy, Sendable {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier] = []

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) async -> PolicyEvaluationResult {
        guard chain.count == 3 else {
            return .failsToMeetPolicy(reason: "an App Store chain has exactly three certificates")
        }
        guard chain[0].hasExtension(AppleCertificateMarkers.leaf) else {
            return .failsToMeetPolicy(reason: "the leaf lacks Apple's receipt-signing marker")
        }
        guard chain[1].hasExtension(AppleCertificateMarkers.intermediate) else {
            return .failsToMeetPolicy(reason: "the intermediate lacks Apple's WWDR marker")
        }
        return .meetsPolicy
    }
}
