/// The statements of a migration script without its comments: what a migration's checksum covers.
///
/// A comment explains a migration; it does not change what the migration did to a database. So
/// `--` and `/* … */` comments (nested, as PostgreSQL allows) are dropped and every run of
/// whitespace becomes one space, while string literals, quoted identifiers and dollar-quoted
/// bodies are kept byte for byte (a function body's comments are part of the function). Fixing a
/// comment in an applied migration therefore keeps its checksum; changing a statement does not.
enum MigrationStatements {
    /// The normalised statement text of `sql`.
    static func text(of sql: String) -> String {
        var scanner = Scanner(Array(sql.utf8))
        return scanner.statements()
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []
        /// Whitespace or a comment was skipped since the last byte written.
        var pendingSpace = false

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        mutating func statements() -> String {
            while index < bytes.count {
                let byte = bytes[index]
                if Self.isWhitespace(byte) {
                    pendingSpace = true
                    index += 1
                } else if byte == UInt8(ascii: "-"), next == UInt8(ascii: "-") {
                    skipLineComment()
                } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                    skipBlockComment()
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    copyQuoted(until: byte, backslashEscapes: byte == UInt8(ascii: "'") && followsEscapePrefix)
                } else if byte == UInt8(ascii: "$"), let tag = dollarTag() {
                    copyDollarQuoted(tag: tag)
                } else {
                    write(byte)
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        private var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

        private mutating func write(_ byte: UInt8) {
            if pendingSpace && !output.isEmpty { output.append(UInt8(ascii: " ")) }
            pendingSpace = false
            output.append(byte)
        }

        private mutating func skipLineComment() {
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            pendingSpace = true
        }

        private mutating func skipBlockComment() {
            var depth = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                    depth += 1
                    index += 2
                } else if bytes[index] == UInt8(ascii: "*"), next == UInt8(ascii: "/") {
                    depth -= 1
                    index += 2
                    if depth == 0 { break }
                } else {
                    index += 1
                }
            }
            pendingSpace = true
        }

        /// Whether the quote at `index` opens an `E'…'` string, where a backslash escapes the next byte.
        private var followsEscapePrefix: Bool {
            guard index > 0, bytes[index - 1] == UInt8(ascii: "E") || bytes[index - 1] == UInt8(ascii: "e") else { return false }
            return index == 1 || !Self.isTagByte(bytes[index - 2])
        }

        /// A `'…'` literal or `"…"` identifier; a doubled quote inside is part of it.
        private mutating func copyQuoted(until quote: UInt8, backslashEscapes: Bool) {
            write(quote)
            index += 1
            while index < bytes.count {
                let byte = bytes[index]
                output.append(byte)
                index += 1
                if backslashEscapes, byte == UInt8(ascii: "\\"), index < bytes.count {
                    output.append(bytes[index])
                    index += 1
                } else if byte == quote {
                    guard index < bytes.count, bytes[index] == quote else { return }
                    output.append(quote)
                    index += 1
                }
            }
        }

        /// The `$tag$` opening at `index`, if one does (`$` followed by an identifier or nothing, then `$`).
        private func dollarTag() -> [UInt8]? {
            var end = index + 1
            while end < bytes.count, Self.isTagByte(bytes[end]) { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "$") else { return nil }
            // `$1` is a parameter, not a tag: a tag does not start with a digit.
            if end > index + 1, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index + 1]) { return nil }
            return Array(bytes[index...end])
        }

        private mutating func copyDollarQuoted(tag: [UInt8]) {
            for byte in tag { write(byte) }
            index += tag.count
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "$"), bytes[index...].starts(with: tag) {
                    output.append(contentsOf: tag)
                    index += tag.count
                    return
                }
                output.append(bytes[index])
                index += 1
            }
        }

        private static func isWhitespace(_ byte: UInt8) -> Bool {
            byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D || byte == 0x0C
        }

        private static func isTagByte(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
        }
    }
}
