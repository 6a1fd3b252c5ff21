// SPDX-License-Identifier: GPL-3.0-or-later

/// A stretch of one line drawn in one go: one direction, one script, one
/// font. `text` is in logical (reading) order; a right-to-left run is laid
/// out right to left by the shaper.
package struct TextRun: Equatable, Sendable {
    package var text: String
    package var rightToLeft: Bool
    /// ISO 15924 tag for the shaper ("Arab", "Hebr", …); "Zzzz" for scripts
    /// that need no shaping of their own.
    package var script: String
    /// Which of the renderer's fonts draws it (0: the main one).
    package var font: Int
}

/// Splits a line into runs, in the order they are drawn left to right: a
/// simplified Unicode bidirectional algorithm (the paragraph's direction
/// from its first strong character; numbers after right-to-left text and
/// neutrals between runs resolved as rules W7, N1 and N2 do; runs reordered
/// by level as rule L2 does) with no explicit embeddings, which file names
/// and tags seldom carry. Whole `Character`s only: a cluster is never split
/// between runs.
package enum TextRuns {
    package enum Strength: Equatable, Sendable { case left, right, number, neutral }

    /// The bidirectional strength of a character, from its first scalar.
    package static func strength(_ c: Character) -> Strength {
        guard let scalar = c.unicodeScalars.first else { return .neutral }
        if scalar.value == 0x200E { return .left }   // LEFT-TO-RIGHT MARK
        if scalar.value == 0x200F { return .right }  // RIGHT-TO-LEFT MARK
        switch scalar.properties.generalCategory {
        case .decimalNumber:
            return .number
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .spacingMark, .letterNumber:
            return isRightToLeftBlock(scalar.value) ? .right : .left
        default:
            return .neutral
        }
    }

    /// Blocks whose letters are written right to left (Hebrew, Arabic,
    /// Syriac, Thaana, N'Ko, Samaritan, Mandaic, their presentation forms,
    /// and the supplementary planes' right-to-left range).
    static func isRightToLeftBlock(_ v: UInt32) -> Bool {
        (0x0590...0x08FF).contains(v) || (0xFB1D...0xFDFF).contains(v) || (0xFE70...0xFEFF).contains(v)
            || (0x10800...0x10FFF).contains(v) || (0x1E800...0x1EFFF).contains(v)
    }

    /// The script tag the shaper needs for scripts whose letters change
    /// shape with their neighbours; nil for the rest.
    static func complexScript(_ v: UInt32) -> String? {
        switch v {
        case 0x0590...0x05FF, 0xFB1D...0xFB4F: return "Hebr"
        case 0x0600...0x06FF, 0x0750...0x077F, 0x0870...0x08FF, 0xFB50...0xFDFF, 0xFE70...0xFEFF: return "Arab"
        case 0x0700...0x074F, 0x0860...0x086F: return "Syrc"
        case 0x0780...0x07BF: return "Thaa"
        case 0x07C0...0x07FF: return "Nkoo"
        case 0x0900...0x097F, 0xA8E0...0xA8FF: return "Deva"
        case 0x0980...0x09FF: return "Beng"
        case 0x0A00...0x0A7F: return "Guru"
        case 0x0A80...0x0AFF: return "Gujr"
        case 0x0B00...0x0B7F: return "Orya"
        case 0x0B80...0x0BFF: return "Taml"
        case 0x0C00...0x0C7F: return "Telu"
        case 0x0C80...0x0CFF: return "Knda"
        case 0x0D00...0x0D7F: return "Mlym"
        case 0x0D80...0x0DFF: return "Sinh"
        case 0x0E00...0x0E7F: return "Thai"
        case 0x0E80...0x0EFF: return "Laoo"
        case 0x0F00...0x0FFF: return "Tibt"
        case 0x1000...0x109F: return "Mymr"
        case 0x1780...0x17FF: return "Khmr"
        default: return nil
        }
    }

    static let noScript = "Zzzz"

    /// `line`'s runs in drawing order; `font` names the font for each character.
    package static func runs(_ line: String, font: (Character) -> Int) -> [TextRun] {
        let chars = Array(line)
        guard !chars.isEmpty else { return [] }
        let strengths = chars.map(strength)
        let paragraphRTL = strengths.first { $0 == .left || $0 == .right } == .right
        let levels = resolveLevels(strengths, paragraphRTL: paragraphRTL)

        // Scripts: a letter's own; anything else goes with the letter before it (or, at the start, after it).
        var scripts = chars.map { c -> String? in
            guard let s = c.unicodeScalars.first, strength(c) == .left || strength(c) == .right else { return nil }
            return complexScript(s.value) ?? noScript
        }
        var last = scripts.first { $0 != nil } ?? noScript
        for i in scripts.indices {
            if let s = scripts[i] { last = s } else { scripts[i] = last }
        }

        var logical: [(run: TextRun, level: Int)] = []
        for i in chars.indices {
            let f = font(chars[i]), script = scripts[i] ?? noScript
            if let previous = logical.last, previous.level == levels[i], previous.run.font == f, previous.run.script == script {
                logical[logical.count - 1].run.text.append(chars[i])
            } else {
                logical.append((TextRun(text: String(chars[i]), rightToLeft: levels[i] % 2 == 1, script: script, font: f), levels[i]))
            }
        }
        // L2: from the highest level down to the lowest odd one, reverse every stretch at that level or above.
        let highest = logical.map(\.level).max() ?? 0
        let lowestOdd = logical.map(\.level).filter { $0 % 2 == 1 }.min() ?? highest + 1
        var level = highest
        while level >= lowestOdd {
            var i = 0
            while i < logical.count {
                guard logical[i].level >= level else { i += 1; continue }
                var end = i
                while end < logical.count && logical[end].level >= level { end += 1 }
                logical[i..<end].reverse()
                i = end
            }
            level -= 1
        }
        return logical.map(\.run)
    }

    /// Each character's embedding level (0, 1 or 2).
    static func resolveLevels(_ strengths: [Strength], paragraphRTL: Bool) -> [Int] {
        // W7 and the numbers' direction: a number after left-to-right text
        // (or at the start of a left-to-right paragraph) is left-to-right;
        // otherwise it sits in right-to-left text (and counts as R for N1).
        var directions: [Bool?] = []  // true: right-to-left; nil: neutral, resolved below
        var previousStrongRTL = paragraphRTL
        for s in strengths {
            switch s {
            case .left: previousStrongRTL = false; directions.append(false)
            case .right: previousStrongRTL = true; directions.append(true)
            case .number: directions.append(previousStrongRTL)
            case .neutral: directions.append(nil)
            }
        }
        // N1/N2: a neutral between two of the same direction takes it; otherwise the paragraph's.
        var resolved = [Bool](repeating: paragraphRTL, count: directions.count)
        var nextDirection = [Bool](repeating: paragraphRTL, count: directions.count)
        var following = paragraphRTL
        for i in directions.indices.reversed() {
            nextDirection[i] = following
            if let d = directions[i] { following = d }
        }
        var preceding = paragraphRTL
        for i in directions.indices {
            if let d = directions[i] {
                resolved[i] = d
                preceding = d
            } else {
                resolved[i] = preceding == nextDirection[i] ? preceding : paragraphRTL
            }
        }
        return strengths.indices.map { i in
            let isNumber = strengths[i] == .number
            if paragraphRTL { return resolved[i] && !isNumber ? 1 : 2 }
            return resolved[i] ? (isNumber ? 2 : 1) : 0
        }
    }
}
