import PostgresLibPQ
import Testing

@Suite struct PostgresConfigurationTests {
    @Test func fullURLIsParsedIntoItsParts() throws {
        let configuration = try PostgresConfiguration(url: "postgres://alice:s3cret@db.example.com:6543/shop?sslmode=require")
        #expect(configuration.host == "db.example.com")
        #expect(configuration.port == 6543)
        #expect(configuration.user == "alice")
        #expect(configuration.password == "s3cret")
        #expect(configuration.database == "shop")
        #expect(configuration.sslMode == .require)
        #expect(!configuration.usesUnixSocket)
    }

    @Test func postgresqlSchemeAndDefaultPortAreAccepted() throws {
        let configuration = try PostgresConfiguration(url: "postgresql://bob@localhost/app")
        #expect(configuration.port == 5432)
        #expect(configuration.password == nil)
        #expect(configuration.sslMode == .prefer)
    }

    @Test func percentEncodedCredentialsAreDecoded() throws {
        let configuration = try PostgresConfiguration(url: "postgres://us%40er:p%3Aa%2Fss%40@host/db")
        #expect(configuration.user == "us@er")
        #expect(configuration.password == "p:a/ss@")
    }

    @Test func hostQueryParameterSelectsAUnixSocketDirectory() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app@/db?host=/var/run/postgresql")
        #expect(configuration.host == "/var/run/postgresql")
        #expect(configuration.usesUnixSocket)
    }

    @Test func percentEncodedSocketPathAsHostIsAccepted() throws {
        let configuration = try PostgresConfiguration(url: "postgres://app@%2Ftmp%2Fsock/db")
        #expect(configuration.host == "/tmp/sock")
    }

    @Test func ipv6HostWithPortIsParsed() throws {
        let configuration = try PostgresConfiguration(url: "postgres://u@[::1]:5433/db")
        #expect(configuration.host == "::1")
        #expect(configuration.port == 5433)
    }

    @Test func missingDatabaseDefaultsToTheUserName() throws {
        #expect(try PostgresConfiguration(url: "postgres://carol@host").database == "carol")
    }

    @Test(arguments: [
        ("mysql://u@h/db", PostgresConfigurationError.unsupportedScheme("mysql")),
        ("localhost/db", PostgresConfigurationError.missingScheme),
        ("postgres://u@h:99999/db", PostgresConfigurationError.invalidPort("99999")),
        ("postgres://u@h:abc/db", PostgresConfigurationError.invalidPort("abc")),
        ("postgres://h/db?sslmode=sometimes", PostgresConfigurationError.invalidSSLMode("sometimes")),
        ("postgres://h/db?colour=blue", PostgresConfigurationError.unknownParameter("colour")),
        ("postgres://h", PostgresConfigurationError.missingDatabase),
        ("postgres://u:%zz@h/db", PostgresConfigurationError.invalidPercentEncoding("password")),
        ("postgres://u:ab/cd@h/db", PostgresConfigurationError.unencodedUserInfo),
        ("postgres://u:ab?cd@h/db", PostgresConfigurationError.unencodedUserInfo),
        ("postgres://u:ab#cd@h/db", PostgresConfigurationError.unencodedUserInfo),
        ("postgres://u:8123/x@h/db", PostgresConfigurationError.unencodedUserInfo),
    ])
    func badURLsAreRejectedNamingTheProblem(url: String, expected: PostgresConfigurationError) {
        #expect(throws: expected) { try PostgresConfiguration(url: url) }
    }

    @Test func descriptionNeverShowsThePassword() throws {
        let configuration = try PostgresConfiguration(url: "postgres://alice:hunter2@host/db")
        #expect(!configuration.description.contains("hunter2"))
        #expect(!PostgresConfigurationError.invalidPort("x").description.contains("hunter2"))
    }

    /// `@` further on is a path's or a query's when the authority has its own.
    @Test func anAtSignAfterTheAuthorityIsKeptWhereTheUserInfoEndsBeforeIt() throws {
        let configuration = try PostgresConfiguration(url: "postgres://u:p%2Fq@h/db?application_name=ops@acme")
        #expect(configuration.password == "p/q")
        #expect(configuration.database == "db")
        #expect(configuration.applicationName == "ops@acme")
    }

    @Test func databaseCanBeRepointedOnACopy() {
        var configuration = PostgresConfiguration(unixSocketDirectory: "/tmp/s", user: "postgres", database: "postgres")
        configuration.database = "other"
        #expect(configuration.database == "other")
        #expect(configuration.host == "/tmp/s")
    }
}
