/// A rectangle in window pixels.
struct Rect: Equatable, Sendable {
    var x: Int, y: Int, width: Int, height: Int

    func contains(x px: Int, y py: Int) -> Bool { px >= x && px < x + width && py >= y && py < y + height }
}
