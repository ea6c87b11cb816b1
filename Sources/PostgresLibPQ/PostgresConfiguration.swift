/// Where and how to connect to PostgreSQL.
///
/// Build it from a URL (`postgres://user:pass@host:5432/db?sslmode=require`) or for a unix
/// socket directory. The password is never printed.
public struct PostgresConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// How hard libpq insists on TLS (libpq's `sslmode`).
    public enum SSLMode: String, Sendable, Hashable, CaseIterable {
        /// Never use TLS.
        case disable
        /// Try without TLS first, then with.
        case allow
        /// Try TLS first, then without (libpq's default).
        case prefer
        /// TLS, without verifying the server's certificate.
        case require
        /// TLS, with the certificate verified against a trusted CA.
        case verifyCA = "verify-ca"
        /// TLS, with the certificate and the host name verified.
        case verifyFull = "verify-full"
    }

    /// A host name, an IP address, or a unix socket directory (a path starting with `/`); nil for libpq's default.
    public var host: String?
    /// The TCP port, which also names the unix socket file (`.s.PGSQL.<port>`).
    public var port: Int
    /// The role to connect as; nil for libpq's default (the operating system user).
    public var user: String?
    /// The password, if the server asks for one.
    public var password: String?
    /// The database to connect to.
    public var database: String
    /// The TLS requirement; ignored for unix sockets.
    public var sslMode: SSLMode
    /// How long to wait for a connection to open, in whole seconds (libpq's minimum is 2).
    public var connectTimeoutSeconds: Int
    /// The `application_name` shown in `pg_stat_activity`.
    public var applicationName: String
    /// How many prepared statements each connection keeps before evicting the least recently used.
    public var preparedStatementCacheSize: Int
    /// Run-time parameters set on every connection as soon as it opens (`set_config`, session
    /// wide), e.g. `plan_cache_mode`. Set by a statement rather than libpq's `options`, which
    /// connection poolers such as PgBouncer refuse by default. Behind a transaction pooler
    /// (``usesTransactionPooler``) they are set at the start of every transaction instead.
    public var sessionSettings: [String: String]
    /// Whether this address is a connection pooler in transaction mode (PgBouncer's
    /// `pool_mode = transaction`), where consecutive statements outside a transaction may run in
    /// different server sessions.
    ///
    /// Nothing then relies on session state: statements run unnamed (no server-side prepared
    /// statements, which PgBouncer before 1.21 cannot route), ``sessionSettings`` are set with
    /// `SET LOCAL` semantics inside each transaction rather than once per connection, and
    /// ``PostgresListener`` refuses the address (`LISTEN` needs a session of its own).
    /// Statements outside a transaction get the server's defaults for the role and database.
    public var usesTransactionPooler: Bool

    /// Creates a configuration for a server reached over a unix socket.
    ///
    /// - Parameters:
    ///   - unixSocketDirectory: The directory holding the socket file, e.g. `/var/run/postgresql`.
    ///   - port: The server's port, which names the socket file.
    ///   - user: The role to connect as.
    ///   - password: The password, when the server asks for one.
    ///   - database: The database to connect to.
    public init(unixSocketDirectory: String, port: Int = 5432, user: String, password: String? = nil, database: String) {
        self.init(host: unixSocketDirectory, port: port, user: user, password: password, database: database)
    }

    /// Creates a configuration for a host reached over TCP (or a socket directory given as `host`).
    ///
    /// - Parameters:
    ///   - host: A host name, an address, or a socket directory.
    ///   - port: The server's port.
    ///   - user: The role to connect as.
    ///   - password: The password, when the server asks for one.
    ///   - database: The database to connect to.
    ///   - sslMode: The TLS requirement.
    public init(
        host: String?, port: Int = 5432, user: String?, password: String? = nil, database: String,
        sslMode: SSLMode = .prefer
    ) {
        self.host = host
        self.port = port
        self.user = user
        self.password = password
        self.database = database
        self.sslMode = sslMode
        self.connectTimeoutSeconds = 5
        self.applicationName = "storesync"
        self.preparedStatementCacheSize = 256
        self.sessionSettings = [:]
        self.usesTransactionPooler = false
    }

    /// Whether `host` names a unix socket directory rather than a network host.
    public var usesUnixSocket: Bool {
        host.map { $0.hasPrefix("/") || $0.hasPrefix("@") } ?? true
    }

    /// Host, port, user and database; never the password.
    public var description: String {
        let target = host.map { usesUnixSocket ? "socket \($0)" : $0 } ?? "default host"
        return "PostgresConfiguration(\(target), port \(port), user \(user ?? "(default)"), database \(database)"
            + (password == nil ? "" : ", password ***") + ")"
    }

    /// libpq's keyword/value connection parameters.
    var connectionParameters: [(String, String)] {
        var parameters: [(String, String)] = [
            ("port", String(port)),
            ("dbname", database),
            ("connect_timeout", String(max(2, connectTimeoutSeconds))),
            ("application_name", applicationName),
            ("client_encoding", "UTF8"),
        ]
        if let host { parameters.append(("host", host)) }
        if let user { parameters.append(("user", user)) }
        if let password { parameters.append(("password", password)) }
        if !usesUnixSocket {
            parameters.append(("sslmode", sslMode.rawValue))
            parameters += Self.deadPeerDetection
        }
        return parameters
    }

    /// How a TCP connection notices a peer that vanished without closing it (a partition, a
    /// dead host, a standby's machine lost): in about a minute, instead of hanging its caller for
    /// the kernel's defaults.
    ///
    /// Two cases, two settings. Waiting for an answer, nothing is in flight: keepalive probes
    /// go out after 30 s of silence, 10 s apart, and the connection closes once a minute has
    /// passed without a word from the peer (without them, two hours). A statement sent into the
    /// void is in flight: no probe is sent while data waits to be acknowledged, and the kernel
    /// would retransmit it for about fifteen minutes; `tcp_user_timeout` closes the connection
    /// once sent data has waited a minute for its acknowledgement (on Linux it also bounds the
    /// probing at that minute). A healthy server's kernel acknowledges within milliseconds
    /// however long the statement runs, and this library pipelines a statement only behind
    /// statements that take no time (BEGIN, its settings, a preparation), so the backend is
    /// reading whatever it sends: no legitimate statement, a migration's included, comes near
    /// that bound.
    static let deadPeerDetection: [(String, String)] = [
        ("keepalives", "1"), ("keepalives_idle", "30"), ("keepalives_interval", "10"), ("keepalives_count", "3"),
        ("tcp_user_timeout", "60000"),
    ]
}

extension PostgresConfiguration {
    /// The statement that sets ``sessionSettings`` for one transaction, run right after BEGIN
    /// behind a transaction pooler (where a session-wide setting would stay with whichever
    /// server session ran it); `nil` elsewhere, or when there are none.
    var transactionLocalSettings: PostgresQuery? {
        guard usesTransactionPooler, !sessionSettings.isEmpty else { return nil }
        let names = sessionSettings.keys.sorted()
        let values = names.map { sessionSettings[$0, default: ""] }
        return "SELECT set_config(name, value, true) FROM unnest(\(names), \(values)) AS setting (name, value)"
    }
}
