import Foundation
import StoreSyncAPI
import Testing

@Suite struct ProblemTests {
    @Test func everyProblemTypeHasAStableURIAndTitle() {
        let slugs = ProblemType.allCases.map(\.slug)
        #expect(slugs == [
            "invalid-request", "malformed-json", "unsupported-media-type", "payload-too-large", "unauthorized",
            "forbidden", "not-found", "email-taken", "weak-password", "invalid-credentials", "rate-limited",
            "owned-by-other-account", "invalid-signed-data", "receipt-rejected", "environment-refused",
            "service-unavailable",
            "appstore-api-not-configured", "appstore-api-error", "internal", "conflict",
        ])
        for type in ProblemType.allCases {
            #expect(type.uri == "https://storesync.dev/errors/\(type.slug)")
            #expect(!type.title.isEmpty)
            #expect((400...599).contains(type.status))
            #expect(ProblemType(uri: type.uri) == type)
        }
    }

    @Test(arguments: [
        (ProblemType.payloadTooLarge, 413), (.unsupportedMediaType, 415), (.emailTaken, 409), (.rateLimited, 429),
        (.unauthorized, 401), (.ownedByOtherAccount, 409), (.serviceUnavailable, 503), (.internal, 500),
        (.appStoreAPINotConfigured, 503), (.appStoreAPIError, 502), (.conflict, 409), (.environmentRefused, 422),
    ])
    func problemTypeCarriesItsHTTPStatus(type: ProblemType, status: Int) {
        #expect(type.status == status)
        #expect(Problem(type).status == status)
    }

    @Test func unknownURIIsNoProblemType() {
        #expect(ProblemType(uri: "https://example.com/errors/internal") == nil)
        #expect(Problem(type: "about:blank", title: "Teapot", status: 418).problemType == nil)
    }

    @Test func wireFormIsRFC9457WithTheFieldExtension() throws {
        let problem = Problem(.invalidRequest, detail: "purchaseDate is not a date", field: "entries[0].purchaseDate")
        #expect(String(decoding: try StoreSyncJSON.makeEncoder().encode(problem), as: UTF8.self)
            == #"{"detail":"purchaseDate is not a date","field":"entries[0].purchaseDate","#
            + #""status":400,"title":"Invalid request","type":"https://storesync.dev/errors/invalid-request"}"#)
    }

    @Test func missingTypeReadsAsAboutBlank() throws {
        let problem = try StoreSyncJSON.makeDecoder().decode(Problem.self, from: Data(#"{"status":502}"#.utf8))
        #expect(problem.type == "about:blank")
        #expect(problem.status == 502)
    }

    @Test func descriptionSaysWhatWentWrong() {
        let problem = Problem(.weakPassword, detail: "Use at least 10 characters.", field: "password")
        #expect(problem.description == "Password too weak (422): Use at least 10 characters. [password]")
    }
}
