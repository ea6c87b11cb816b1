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

    /// The first statement of `sql` that starts, ends or divides a transaction (`BEGIN`,
    /// `COMMIT`, `ROLLBACK`, `SAVEPOINT`, …), as its first two words, or nil.
    ///
    /// The migrator runs each script in one transaction with the row that records it; a `COMMIT`
    /// inside would make what came before it permanent and run the rest, and the record, outside
    /// any transaction, so a failure after it leaves a half-applied migration nobody recorded.
    /// Words inside comments, literals and dollar-quoted bodies (a `DO` block's `BEGIN … END`)
    /// are not statements, nor is the `END` closing a SQL function's `BEGIN ATOMIC` body.
    static func transactionControl(in sql: String) -> String? {
        var scanner = Scanner(Array(sql.utf8))
        _ = scanner.statements()
        let words = scanner.words
        var atomicBodies = 0
        for (position, word) in words.enumerated() {
            let name = word.text.uppercased()
            let following = position + 1 < words.count ? words[position + 1] : nil
            if !word.startsStatement {
                if name == "BEGIN", following?.text.uppercased() == "ATOMIC" { atomicBodies += 1 }
                continue
            }
            if atomicBodies > 0 {
                if name == "END" { atomicBodies -= 1 }
                continue
            }
            guard transactionControlWords.contains(name) else { continue }
            let second = following.flatMap { $0.startsStatement ? nil : $0.text.uppercased() }
            // `PREPARE name AS …` prepares a statement; only `PREPARE TRANSACTION` ends one.
            if name == "PREPARE", second != "TRANSACTION" { continue }
            return [name, second].compactMap(\.self).joined(separator: " ")
        }
        return nil
    }

    private static let transactionControlWords: Set<String> = [
        "BEGIN", "START", "COMMIT", "END", "ROLLBACK", "ABORT", "SAVEPOINT", "RELEASE", "PREPARE",
    ]

    /// A word of a script outside comments, literals and quoted bodies.
    private struct Word {
        var text: String
        /// Whether it is the first thing of its statement.
        let startsStatement: Bool
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var output: [UInt8] = []
        /// Whitespace or a comment was skipped since the last byte written.
        var pendingSpace = false
        /// The words outside comments, literals and quoted bodies, in order.
        var words: [Word] = []
        /// Whether the last byte written outside quotes was a letter of `words.last`.
        var inWord = false
        /// Whether nothing of the current statement was written yet.
        var atStatementStart = true

        init(_ bytes: [UInt8]) {
            self.bytes = bytes
            output.reserveCapacity(bytes.count)
        }

        mutating func statements() -> String {
            while index < bytes.count {
                let byte = bytes[index]
                if Self.isWhitespace(byte) {
                    pendingSpace = true
                    inWord = false
                    index += 1
                } else if byte == UInt8(ascii: "-"), next == UInt8(ascii: "-") {
                    skipLineComment()
                    inWord = false
                } else if byte == UInt8(ascii: "/"), next == UInt8(ascii: "*") {
                    skipBlockComment()
                    inWord = false
                } else if byte == UInt8(ascii: "'") || byte == UInt8(ascii: "\"") {
                    noteOther()
                    copyQuoted(until: byte, backslashEscapes: byte == UInt8(ascii: "'") && followsEscapePrefix)
                } else if byte == UInt8(ascii: "$"), let tag = dollarTag() {
                    noteOther()
                    copyDollarQuoted(tag: tag)
                } else {
                    note(byte)
                    write(byte)
                    index += 1
                }
            }
            return String(decoding: output, as: UTF8.self)
        }

        private var next: UInt8? { index + 1 < bytes.count ? bytes[index + 1] : nil }

        /// Follows a plain byte into ``words``: letters (and `_`) make words, `;` ends a statement.
        private mutating func note(_ byte: UInt8) {
            let isLetter = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || byte == UInt8(ascii: "_")
            if byte == UInt8(ascii: ";") {
                atStatementStart = true
                inWord = false
            } else if isLetter, inWord {
                words[words.count - 1].text.append(Character(Unicode.Scalar(byte)))
            } else if isLetter {
                words.append(Word(text: String(Unicode.Scalar(byte)), startsStatement: atStatementStart))
                atStatementStart = false
                inWord = true
            } else if !(inWord && (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)) {
                noteOther()
            }
        }

        /// Anything but a word's letter or digit: a quoted part, a number, an operator.
        private mutating func noteOther() {
            atStatementStart = false
            inWord = false
        }

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
