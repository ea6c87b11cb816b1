public import Hummingbird
public import StoreSyncAPI
public import StoreSyncCore

// The wire types are plain Codable values shared with the client; the server answers with
// them directly, encoded by the context's StoreSync encoder.
extension SessionResponse: ResponseEncodable {}
extension CatalogResponse: ResponseEncodable {}
extension CatalogProduct: ResponseEncodable {}
extension PurchaseHistory: ResponseEncodable {}
extension SigningKeyResponse: ResponseEncodable {}
extension WebhookDeliveryPage: ResponseEncodable {}
