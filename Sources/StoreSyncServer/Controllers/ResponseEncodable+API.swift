public import Hummingbird
public import StoreSyncAPI
public import StoreSyncCore

// The wire types are plain Codable values shared with the client; the server answers with
// them directly, encoded by the context's StoreSync encoder.
extension SessionResponse: ResponseEncodable {}
extension SessionList: ResponseEncodable {}
extension ExternalUser: ResponseEncodable {}
extension CatalogResponse: ResponseEncodable {}
extension CatalogProduct: ResponseEncodable {}
extension PurchaseHistory: ResponseEncodable {}
extension SigningKeyResponse: ResponseEncodable {}
extension PurchaseRefreshResponse: ResponseEncodable {}
extension NotificationRecoveryResponse: ResponseEncodable {}
extension OrderLookupResponse: ResponseEncodable {}
extension TestNotificationResponse: ResponseEncodable {}
extension WebhookDeliveryPage: ResponseEncodable {}
