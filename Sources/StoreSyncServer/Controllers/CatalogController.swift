import Hummingbird
import StoreSyncAPI
import StoreSyncCore

/// `GET /v1/catalog` and `PUT /v1/admin/catalog/products/{productId}`.
struct CatalogController {
    let catalog: CatalogService
    let maxBodyBytes: Int

    func addRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.get("catalog", use: list)
    }

    func addAdminRoutes(to group: RouterGroup<StoreSyncRequestContext>) {
        group.put("catalog/products/{productId}", use: define)
    }

    @Sendable func list(_ request: Request, context: StoreSyncRequestContext) async throws -> CatalogResponse {
        CatalogResponse(products: catalog.current.sortedProducts)
    }

    @Sendable func define(_ request: Request, context: StoreSyncRequestContext) async throws -> CatalogProduct {
        let productId = try context.parameters.require("productId")
        let definition = try await request.decodeJSON(ProductDefinition.self, limit: maxBodyBytes)
        if let bodyId = definition.productId, bodyId != productId {
            throw ProblemError.invalidRequest("productId in the body differs from the path", field: "productId")
        }
        let product = CatalogProduct(
            productId: productId, type: definition.type, entitlements: definition.entitlements,
            durationSeconds: definition.durationSeconds, subscriptionGroupId: definition.subscriptionGroupId,
            gracePeriodSeconds: definition.gracePeriodSeconds)
        try await catalog.define(product)
        return product
    }
}
