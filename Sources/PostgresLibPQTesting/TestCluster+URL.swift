import Foundation
public import PostgresLibPQ

extension TestCluster {
    /// A database of the cluster as a `postgres://` URL, for a program configured by one
    /// (`DATABASE_URL`): the cluster listens on a unix socket only, so libpq's `host` parameter
    /// names the socket's directory.
    ///
    /// - Parameter configuration: A configuration ``makeDatabase(migrationsDirectory:)`` returned.
    /// - Returns: `postgres:///<database>?host=<socket directory>&port=<port>&user=<user>`.
    public static func url(of configuration: PostgresConfiguration) -> String {
        var query = URLComponents()
        query.queryItems = [
            URLQueryItem(name: "host", value: configuration.host), URLQueryItem(name: "port", value: String(configuration.port)),
            URLQueryItem(name: "user", value: configuration.user),
        ]
        return "postgres:///\(configuration.database)?\(query.percentEncodedQuery ?? "")"
    }
}
