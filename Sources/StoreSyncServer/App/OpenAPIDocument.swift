import Foundation

/// The OpenAPI document shipped as a resource and served at `GET /openapi.yaml`.
enum OpenAPIDocument {
    static let data: Data = {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml"),
            let data = try? Data(contentsOf: url)
        else { return Data("openapi: 3.1.0\ninfo: {title: StoreSync, version: unknown}\npaths: {}\n".utf8) }
        return data
    }()
}
