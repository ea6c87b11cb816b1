#if os(Linux)
import Foundation

/// Linux's scheduling classes as `/proc/<pid>/task/<tid>/stat` numbers them (its 41st field).
enum SchedulingClass {
    static let normal = 0
    static let batch = 3

    /// The class of each thread of process `pid`, by thread id.
    static func ofThreads(of pid: Int32) -> [Int32: Int] {
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var classes: [Int32: Int] = [:]
        for thread in threads.compactMap({ Int32($0) }) {
            if let policy = policy(statPath: "/proc/\(pid)/task/\(thread)/stat") { classes[thread] = policy }
        }
        return classes
    }

    /// The class of process `pid`'s main thread.
    static func ofProcess(_ pid: Int32) -> Int? { policy(statPath: "/proc/\(pid)/stat") }

    /// The processes whose parent is `pid`.
    static func children(of pid: Int32) -> [Int32] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap(Int32.init).filter { field(4, statPath: "/proc/\($0)/stat") == Int(pid) }
    }

    private static func policy(statPath: String) -> Int? { field(41, statPath: statPath) }

    /// Field `number` (from 1) of a stat file; the command name (field 2) may hold spaces and
    /// parentheses, so fields are counted after its closing one.
    private static func field(_ number: Int, statPath: String) -> Int? {
        guard let text = try? String(contentsOfFile: statPath, encoding: .utf8),
            let end = text.lastIndex(of: ")")
        else { return nil }
        let fields = text[text.index(after: end)...].split(separator: " ")
        guard fields.count > number - 3 else { return nil }
        return Int(fields[number - 3])
    }
}
#endif
