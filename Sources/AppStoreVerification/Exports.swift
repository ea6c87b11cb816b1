// Apple's payload types (TransactionPayload, NotificationType, …) are part of this module's
// API: every verified value carries its payload.
@_exported public import AppStorePayloads
