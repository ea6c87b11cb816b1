import Foundation
@testable import PostgresLibPQ
import PostgresLibPQTesting
import Testing

/// Which PostgreSQL runs an existing cluster: the version that made it, not the newest one a
/// distribution upgrade installed beside it.
@Suite struct PostgresBinariesTests {
    /// Installations of these versions, each a `bin` directory whose `postgres --version`
    /// answers as PostgreSQL's does.
    private func installations(_ versions: [String]) throws -> (root: URL, directories: [String]) {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("pg-bin-\(UUID().uuidString)")
        var directories: [String] = []
        for version in versions {
            let bin = root.appendingPathComponent(version).appendingPathComponent("bin")
            try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
            for tool in ["initdb", "pg_ctl", "postgres"] {
                try writeScript(answering: "postgres (PostgreSQL) \(version) (Debian \(version)-1)", to: bin.appendingPathComponent(tool))
            }
            directories.append(bin.path)
        }
        return (root, directories)
    }

    /// Writes an executable script through a shell of its own: a file this process held open
    /// for writing could be inherited by a child another test forks meanwhile, and running it
    /// would then fail (ETXTBSY).
    private func writeScript(answering answer: String, to file: URL) throws {
        let writer = Process()
        writer.executableURL = URL(fileURLWithPath: "/bin/sh")
        writer.arguments = ["-c", "printf '#!/bin/sh\\necho \"%s\"\\n' \"$1\" > \"$2\" && chmod 755 \"$2\"", "sh", answer, file.path]
        try writer.run()
        #expect(ChildExit.wait(for: writer) == 0)
    }

    @Test func anExistingClusterGetsTheVersionThatMadeItThoughANewerOneComesFirst() async throws {
        let (root, directories) = try installations(["17.2", "15.8"])
        defer { try? FileManager.default.removeItem(at: root) }
        #expect(try await PostgresBinaries.choose(from: directories, dataVersion: "15").directory == directories[1])
        #expect(try await PostgresBinaries.choose(from: directories, dataVersion: nil).directory == directories[0], "a new cluster")
    }

    @Test func aClusterWhoseVersionIsNotInstalledIsRefusedNamingBothVersionsAndTheWayOn() async throws {
        let (root, directories) = try installations(["17.2"])
        defer { try? FileManager.default.removeItem(at: root) }
        await #expect(throws: EmbeddedPostgresError.dataVersionNotInstalled(dataVersion: "15", installed: ["17"])) {
            try await PostgresBinaries.choose(from: directories, dataVersion: "15")
        }
        let description = EmbeddedPostgresError.dataVersionNotInstalled(dataVersion: "15", installed: ["17"]).description
        #expect(description.contains("PostgreSQL 15") && description.contains("PostgreSQL 17"))
        #expect(description.contains("postgresql-15") && description.contains("pg_upgrade"))
    }

    @Test(arguments: [
        ("postgres (PostgreSQL) 15.20 (Debian 15.20-0+deb12u1)", "15"), ("postgres (PostgreSQL) 9.6.24", "9.6"),
        ("postgres (PostgreSQL) 17devel", "17"),
    ])
    func theMajorVersionIsReadAsPGVersionSpellsIt(answer: String, major: String) async throws {
        let (root, directories) = try installations(["0"])
        defer { try? FileManager.default.removeItem(at: root) }
        try writeScript(answering: answer, to: URL(fileURLWithPath: directories[0]).appendingPathComponent("postgres"))
        #expect(await PostgresBinaries.majorVersion(of: directories[0]) == major)
    }
}
