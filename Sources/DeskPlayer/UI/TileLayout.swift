// SPDX-License-Identifier: GPL-3.0-or-later
/// How several players share the main window.
package enum TileLayout: String, CaseIterable, Sendable {
    /// Rows and columns, as square as the count allows.
    case grid
    /// One row.
    case sideBySide = "side-by-side"
    /// One column.
    case stack

    /// The area of each of `count` tiles in `bounds`, in reading order. Tiles
    /// of a row share its width; the last pixels go to the last tile, so the
    /// areas cover `bounds` exactly.
    func areas(count: Int, in bounds: Rect) -> [Rect] {
        guard count > 0 else { return [] }
        let columns: Int, rows: Int
        switch self {
        case .grid:
            var c = 1
            while c * c < count { c += 1 }
            columns = c
            rows = (count + c - 1) / c
        case .sideBySide:
            columns = count
            rows = 1
        case .stack:
            columns = 1
            rows = count
        }
        func edge(_ i: Int, _ n: Int, _ length: Int) -> Int { length * i / n }
        return (0..<count).map { index in
            let row = index / columns, column = index % columns
            // A last row that is not full is centred.
            let inRow = row == rows - 1 ? count - row * columns : columns
            let x0 = edge(column, columns, bounds.width) + (columns - inRow) * bounds.width / (2 * columns)
            let x1 = edge(column + 1, columns, bounds.width) + (columns - inRow) * bounds.width / (2 * columns)
            let y0 = edge(row, rows, bounds.height), y1 = edge(row + 1, rows, bounds.height)
            return Rect(x: bounds.x + x0, y: bounds.y + y0, width: x1 - x0, height: y1 - y0)
        }
    }
}
