import Foundation
import PropertyBased
import StoreSyncAPI
import StoreSyncCore
import StoreSyncWire
import Testing

/// `RestoreRequestStream` reads a body in fragments, whatever their sizes, exactly as
/// `JSONDecoder` reads the whole body: the same request from what it accepts, an error for
/// what it refuses, and an entry's error naming that entry.
@Suite struct RestoreRequestStreamTests {
    enum Outcome: Equatable {
        case read(RestoreRequest)
        /// Refused; the field the error names, if it names one.
        case refused(field: String?)
    }

    /// The body fed in fragments of `size` bytes (the last one shorter).
    static func streamed(_ body: Data, fragmentSize size: Int) -> Outcome {
        var stream = RestoreRequestStream()
        do {
            try body.withUnsafeBytes { bytes in
                for start in stride(from: 0, to: bytes.count, by: size) {
                    try stream.consume(UnsafeRawBufferPointer(rebasing: bytes[start..<min(start + size, bytes.count)]))
                }
            }
            return .read(try stream.finish())
        } catch let error as DecodingError {
            return .refused(field: field(of: error))
        } catch {
            return .refused(field: nil)
        }
    }

    static func whole(_ body: Data) -> Outcome {
        do {
            return .read(try StoreSyncJSON.makeDecoder().decode(RestoreRequest.self, from: body))
        } catch let error as DecodingError {
            return .refused(field: field(of: error))
        } catch {
            return .refused(field: nil)
        }
    }

    /// The field an error names as the server's 400 would: `nil` for a body that is not JSON.
    static func field(of error: DecodingError) -> String? {
        switch error {
        case .keyNotFound(let key, let context): (context.codingPath + [key]).fieldPath(topLevel: "body")
        case .valueNotFound(_, let context), .typeMismatch(_, let context):
            context.codingPath.fieldPath(topLevel: "body")
        case .dataCorrupted(let context): context.codingPath.isEmpty ? nil : context.codingPath.fieldPath(topLevel: "body")
        @unknown default: nil
        }
    }

    /// Fragments of a few bytes, which split every element, and fragments of up to 16 KB, which
    /// hold whole elements (read in place) and split others.
    static let fragmentSizes = Gen<Int>.oneOf(Gen.int(in: 1...97), Gen.int(in: 98...16_384))

    @Test func whatTheEncoderWritesReadsAsTheWholeBodyReadsInAnyFragments() async {
        await propertyCheck(count: 300, input: RestoreRequestFastDecodingTests.request, Self.fragmentSizes) { request, size in
            let body = try StoreSyncJSON.makeEncoder().encode(request)
            #expect(Self.streamed(body, fragmentSize: size) == .read(request))
        }
    }

    /// The records' texts come out split after their headers, one header object for all the
    /// texts that share it (the request's certificate chain held once), each the text sent.
    @Test func recordsTextsShareTheirHeaderOnceRead() throws {
        let date = Date(timeIntervalSince1970: 1_700_000_000)
        let texts = (0..<6).map { "header-\($0 % 2 == 0 ? "a" : "b").payload-\($0).signature-\($0)" }
        let entries = texts.enumerated().map { index, text in
            RestoreEntry.record(TransactionRecord(
                transactionId: "\(index)", originalTransactionId: "\(index)", productId: "pro", productType: .nonConsumable,
                purchaseDate: date, originalPurchaseDate: date, signedDate: date, evidence: .jws, signedTransaction: text))
        } + [.signedTransaction("header-a.only.the-text")]
        let request = RestoreRequest(entries: entries, userInitiated: true)
        guard case .read(let read) = Self.streamed(try StoreSyncJSON.makeEncoder().encode(request), fragmentSize: 7) else {
            Issue.record("the body reads")
            return
        }
        #expect(read == request)
        let headers = read.entries.compactMap { entry -> SignedText.Header? in
            guard case .split(let header, _) = entry.record?.signedText?.layout else { return nil }
            return header
        }
        #expect(headers.count == 6)
        #expect(headers.enumerated().allSatisfy { $1 === headers[$0 % 2] })
        #expect(headers[0] !== headers[1])
        #expect(read.entries.map(\.signedTransaction) == entries.map(\.signedTransaction))
        #expect(read.entries.last == .signedTransaction("header-a.only.the-text"))
    }

    /// Bytes deleted, inserted or replaced anywhere: read the same as the whole body, or refused
    /// as it is, naming the same field. Two differences are allowed, both refusals: a body whose
    /// `entries` appears twice (or whose keys are escaped) is refused here whichever the decoder
    /// would take; and of a body that is not JSON at all, an entry read before the defect may
    /// be the one named.
    @Test func aMangledBodyReadsOrFailsAsTheWholeBodyDoes() async {
        await propertyCheck(count: 2_000, input: RestoreRequestFastDecodingTests.request, WireGenerators.edits, Self.fragmentSizes) {
            request, edits, size in
            let body = WireGenerators.applying(edits, to: try StoreSyncJSON.makeEncoder().encode(request))
            let streamed = Self.streamed(body, fragmentSize: size)
            let whole = Self.whole(body)
            let text = String(decoding: body, as: UTF8.self)
            switch (streamed, whole) {
            case (.read, _), (_, .read):
                #expect(streamed == whole || streamed == .refused(field: "entries") && Self.mayNameEntriesTwice(text), "\(text)")
            case (.refused(let here), .refused(let there)):
                #expect(here == there || there == nil && here?.hasPrefix("entries[") == true, "\(text)")
            }
        }
    }

    /// Whether a body may have `entries` twice, or a key with an escape in it.
    static func mayNameEntriesTwice(_ text: String) -> Bool {
        text.components(separatedBy: "entries").count > 2 || text.contains("\\")
    }

    @Test func anEntrysErrorNamesTheEntry() throws {
        let body = Data(#"{"entries":[{"signedTransaction":"a.b.c"},{"transactionId":"1"}],"userInitiated":true}"#.utf8)
        let streamed = Self.streamed(body, fragmentSize: 7)
        #expect(streamed == Self.whole(body))
        guard case .refused(let field?) = streamed else {
            Issue.record("the entry's error names no field: \(streamed)")
            return
        }
        #expect(field.hasPrefix("entries[1]."))
    }

    @Test(arguments: [
        #"{"entries":[{"signedTransaction":"a.b.c"}],"entries":[]}"#,
        #"{"entries":[],"entr\u0069es":[{"signedTransaction":"a.b.c"}]}"#,
    ])
    func entriesNamedTwiceIsRefused(body: String) {
        #expect(Self.streamed(Data(body.utf8), fragmentSize: 5) == .refused(field: "entries"))
    }

    @Test(arguments: [
        #"{"entries":[{"signedTransaction":"a.b.c"},]}"#,  // a trailing comma
        #"{"entries":[,{"signedTransaction":"a.b.c"}]}"#,
        #"{"entries":[{"signedTransaction":"a.b.c"}}"#,  // the array never closes
        #"{"entries":[{"signedTransaction":"a.b.c"}]"#,  // nor the object
        #"{"entries":[{"signedTransaction":"a.b.c"}]} x"#,
        #"{"entries":[{"signedTransaction":"a.b.c"} x]}"#,  // something after an element's object
        #"{"entries":[{"signedTransaction":"a.b.c"}x,{"signedTransaction":"d.e.f"}]}"#,
        #"{"entries":[{"signedTransaction":"a.b.c"} ,{"signedTransaction":"d.e.f"}\n]}"#,
        #"{"entries":[{"signedTransaction":"a.b.c"]}]}"#,
        #"{"entries":[{"signedTransaction":"a.b.c}]}"#,
        #"{"entries":[]}"#,
        #"{"entries":null}"#,
        #"{"entries":[1]}"#,
        #"{"dryRun":true,"entries":[ {"signedTransaction" : "a.b\"c"} ] , "legacyFlags":{"p":true}}"#,
        #"[]"#,
        #" "#,
        // As deep as the whole body may nest, and one level deeper.
        #"{"entries":[{"signedTransaction":"a.b.c","x":"# + String(repeating: "[", count: 509) + String(repeating: "]", count: 509) + "}]}",
        #"{"entries":[{"signedTransaction":"a.b.c","x":"# + String(repeating: "[", count: 510) + String(repeating: "]", count: 510) + "}]}",
    ])
    func bodiesAtTheEdgesReadOrFailAsTheWholeBodyDoes(body: String) {
        for size in [1, 2, 3, 1_000] {
            #expect(Self.streamed(Data(body.utf8), fragmentSize: size) == Self.whole(Data(body.utf8)), "fragments of \(size)")
        }
    }
}
