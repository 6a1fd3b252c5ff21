// SPDX-License-Identifier: GPL-3.0-or-later
/// Plays a list of items in order (AVQueuePlayer). The item after the
/// current one is always opened and prerolled, so with `.advance` the
/// switch is gapless; an item that fails to open is reported and skipped.
/// Main thread only.
package final class QueuePlayer {
    package let player: Player
    /// The queue; the first item is the player's current item.
    package private(set) var items: [PlayerItem] = []
    /// Items that finished or were skipped, newest last (for "previous").
    package private(set) var history: [PlayerItem] = []
    /// Start again from the first item after the last (`--playlist-loop`).
    package var loopsQueue = false
    /// The entries after the current one were put in a random order (mpv's `shuffle`).
    package private(set) var isShuffled = false
    private var originals: [PlayerItem] = []
    private var events: [PlayerEvent] = []
    private let makeItem: (PlayerItem) -> PlayerItem

    /// `copy` makes a fresh item like a given one (to replay it).
    package init(player: Player = Player(), items: [PlayerItem], copy: @escaping (PlayerItem) -> PlayerItem) {
        self.player = player
        self.makeItem = copy
        player.actionAtItemEnd = .advance
        self.items = items
        originals = items
        start()
    }

    package var currentItem: PlayerItem? { items.first }

    /// Skips to the next item at once (mpv's `>` / Enter).
    package func advanceToNextItem() {
        guard !items.isEmpty else { return }
        history.append(items.removeFirst())
        refillIfLooping()
        start()
    }

    /// Goes back to the item before the current one (mpv's `<`).
    package func playPrevious() {
        guard let previous = history.popLast() else { return }
        items.insert(makeItem(previous), at: 0)
        start()
    }

    /// Plays entry `index` of the whole list (history, then the queue) now,
    /// as mpv's `set playlist-pos`. False when there is no such entry.
    @discardableResult
    package func play(at index: Int) -> Bool {
        let all = history + items
        guard all.indices.contains(index) else { return false }
        history = Array(all[..<index])
        items = [makeItem(all[index])] + all[(index + 1)...]
        start()
        return true
    }

    package func insert(_ item: PlayerItem, after existing: PlayerItem?) {
        if let existing, let index = items.firstIndex(where: { $0 === existing }) {
            items.insert(item, at: index + 1)
        } else {
            items.append(item)
        }
        if items.count == 1 { start() } else { prepareUpcoming() }
    }

    package func remove(_ item: PlayerItem) {
        guard let index = items.firstIndex(where: { $0 === item }) else { return }
        items.remove(at: index)
        if index == 0 { start() } else { prepareUpcoming() }
        item.cancel()
    }

    package func removeAllItems() {
        let old = items
        items.removeAll()
        player.setUpcomingItem(nil)
        player.replaceCurrentItem(with: nil)
        old.forEach { $0.cancel() }
    }

    /// The whole list as mpv numbers it: the finished entries, then the
    /// current one, then those to come.
    package var entries: [PlayerItem] { history + items }

    /// Removes entry `index` of the whole list (mpv's playlist-remove):
    /// the current one gives way to the next at once. False when there is none.
    @discardableResult
    package func remove(at index: Int) -> Bool {
        if history.indices.contains(index) {
            history.remove(at: index)
            return true
        }
        let queued = index - history.count
        guard items.indices.contains(queued) else { return false }
        let item = items.remove(at: queued)
        item.cancel()
        if queued == 0 { start() } else { prepareUpcoming() }
        return true
    }

    /// Every entry but the current one goes (mpv's playlist-clear).
    package func clearAllButCurrent() {
        history.removeAll()
        items.dropFirst().forEach { $0.cancel() }
        items = Array(items.prefix(1))
        originals = items
        prepareUpcoming()
    }

    /// Nothing plays and the list is empty (mpv's stop).
    package func stop() {
        history.removeAll()
        originals.removeAll()
        removeAllItems()
    }

    /// Moves entry `from` to just before entry `to` (`to` may be the count:
    /// to the end), as mpv's playlist-move. The current entry stays current.
    @discardableResult
    package func move(_ from: Int, before to: Int) -> Bool {
        var all = entries
        guard all.indices.contains(from), (0...all.count).contains(to) else { return false }
        let current = currentItem
        let moved = all.remove(at: from)
        all.insert(moved, at: to > from ? to - 1 : to)
        guard let current, let index = all.firstIndex(where: { $0 === current }) else {
            history = all
            return true
        }
        history = Array(all[..<index])
        items = Array(all[index...])
        prepareUpcoming()
        return true
    }

    /// Puts the entries after the current one in a random order.
    package func shuffle() {
        guard items.count > 1 else {
            isShuffled = true
            return
        }
        items = [items[0]] + items.dropFirst().shuffled()
        isShuffled = true
        prepareUpcoming()
    }

    /// Puts the entries to come back in the order they were given.
    package func unshuffle() {
        guard isShuffled else { return }
        isShuffled = false
        let order = originals.map(\.name)
        let rank = { (item: PlayerItem) in order.firstIndex(of: item.name) ?? Int.max }
        guard items.count > 1 else { return }
        items = [items[0]] + items.dropFirst().enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.map(\.element)
        prepareUpcoming()
    }

    package func replaceCurrentItem(with item: PlayerItem) {
        if items.isEmpty { items = [item] } else { items[0] = item }
        start()
    }

    /// Call every turn after the player's `tick`, before anything reads the
    /// queue: follows the player's hand-overs and skips items that fail.
    /// Returns the events to show.
    package func takeEvents() -> [PlayerEvent] {
        for event in player.takeEvents() {
            switch event {
            case .advanced(let from, _):
                if items.first === from { history.append(items.removeFirst()) }
                refillIfLooping()
                prepareUpcoming()
                events.append(event)
            case .failed(let error):
                if let failed = items.first {
                    events.append(.itemFailed(failed, error))
                    history.append(failed)
                    items.removeFirst()
                    refillIfLooping()
                    start()
                }
            case .didPlayToEnd:
                // The player could not hand over (nothing prerolled): do it now.
                if items.count > 1 {
                    events.append(.advanced(from: items[0], stats: player.stats))
                    history.append(items.removeFirst())
                    refillIfLooping()
                    start()
                } else {
                    events.append(event)
                }
            default:
                events.append(event)
            }
        }
        // An upcoming item that failed to open is reported and dropped now,
        // while the current one still plays.
        if items.count > 1, case .failed(let error) = items[1].status {
            let failed = items.remove(at: 1)
            history.append(failed)
            events.append(.itemFailed(failed, error))
            refillIfLooping()
            prepareUpcoming()
        }
        defer { events.removeAll() }
        return events
    }

    private func start() {
        player.replaceCurrentItem(with: items.first)
        prepareUpcoming()
    }

    private func prepareUpcoming() {
        player.setUpcomingItem(items.count > 1 ? items[1] : nil)
    }

    private func refillIfLooping() {
        if loopsQueue && items.count <= 1 { items += originals.map(makeItem) }
    }
}
