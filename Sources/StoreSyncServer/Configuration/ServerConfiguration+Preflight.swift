extension ServerConfiguration {
    /// Checks the files the settings name — the migrations directory, the trusted roots, the
    /// catalog and the App Store Server API key — the way the application will read them.
    ///
    /// ``buildApplication(reader:metrics:)`` runs it before it starts a database: a mistyped path
    /// then stops start-up at once and leaves nothing behind, instead of after an embedded cluster
    /// was created (tens of megabytes, seconds) only to be refused.
    ///
    /// - Throws: ``ConfigurationError`` naming the setting.
    func checkReferencedFiles() throws {
        _ = try SchemaLocation.resolve(configured: schemaDirectory)
        _ = try AppDependencies.verifierConfiguration(self)
        if let catalogPath { _ = try CatalogService.products(inFile: catalogPath) }
        _ = try appStoreAPIConfigurations()
    }
}
