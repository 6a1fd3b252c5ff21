// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import UI
import Output
import Playback
import Media
/// Sets up a comparison (`--compare`): its settings shared by the window
/// (which draws them) and the controller (whose properties change them),
/// its keys before the usual ones, and pictures the difference can read.
enum CompareSession {
    static func start(_ mode: CompareState.Mode, _ options: DeskPlayerCommand, window: MainWindow,
                      controller: CommandController, factory: TileFactory) {
        let state = CompareState(mode: mode, count: options.files.count)
        state.diffGain = options.compareDiffGain
        state.diffVariant = options.compareDiff
        state.wipePosition = options.compareWipe
        state.wipeOrientation = options.compareWipeOrientation
        start(state, window: window, controller: controller, factory: factory)
    }

    /// The camera roll's "Compare": the tiles there are closed, and the
    /// two files play synced in a wipe, as `--compare=wipe A B` starts
    /// them (the comparison's settings at their defaults). Nothing when a
    /// comparison is on already.
    static func start(comparing paths: [String], window: MainWindow, controller: CommandController,
                      factory: TileFactory) throws(CommandError) {
        guard paths.count == 2, controller.compare == nil else { throw .commandFailed }
        start(CompareState(mode: .wipe, count: 2), window: window, controller: controller, factory: factory)
        let tiles = controller.tiles
        for tile in tiles.tiles { tiles.close(tile) }
        let made = paths.map { factory.tile([$0]) }
        for tile in made { tiles.add(tile) }
        tiles.synchronize(made)
    }

    private static func start(_ state: CompareState, window: MainWindow, controller: CommandController, factory: TileFactory) {
        controller.compare = state
        let keys = Set(CompareKeys.bindings.map(\.key))
        controller.bindings = CompareKeys.bindings + controller.bindings.filter { $0.section != .main || !keys.contains($0.key) }
        window.compare = CompareView(state: state)
        // The difference is made from BGRA pictures at the size shown; a
        // GPU's YUV textures at the video's size would need a read back.
        factory.picturesForGPU = false
    }

    /// Once the tiles are made: the shift from the command line, and
    /// `--compare-align` started (it reads the files itself, opened or not).
    static func tilesMade(_ options: DeskPlayerCommand, controller: CommandController) {
        guard controller.compare != nil else { return }
        if options.compareShift != 0 {
            try? CompareProperties.setShift(PropertyTarget(tile: nil, controller: controller), seconds: options.compareShift)
        }
        if let method = options.compareAlign.method {
            do throws(CommandError) { try controller.compareAlignment.start(method, controller: controller) } catch {
                PlayerApp.printError("compare-align: \(error.rawValue)")
            }
        }
    }

    /// When an item opens: once every side knows its length, the shift is
    /// set again, clamped (and said) if it is beyond an end.
    static func itemReady(_ controller: CommandController) {
        guard let state = controller.compare, !state.shiftChecked else { return }
        let group = controller.tiles.syncGroup
        guard !group.isEmpty, group.allSatisfy({ $0.player.currentItem?.duration != nil || $0.player.currentItem?.error != nil })
        else { return }
        state.shiftChecked = true
        for (index, shift) in state.shifts.enumerated().dropFirst() where shift != 0 {
            try? CompareProperties.setShift(PropertyTarget(tile: nil, controller: controller), seconds: shift, of: index)
        }
        // Different lengths: the shorter holds its last frame from its end on
        // (its label says so then; no OSD line over the pictures compared).
        guard let a = group[0].player.currentItem?.duration?.seconds else { return }
        for (index, tile) in group.enumerated().dropFirst() {
            guard let item = tile.player.currentItem, let d = item.duration?.seconds, abs(d - a) > 0.05 else { continue }
            let line = "compare: \(CompareView.letter(index)) (\(DisplayText.shortName(item.name))) is "
                + String(format: "%.2f s, A %.2f s: ", d, a)
                + (d < a ? "\(CompareView.letter(index)) holds its last frame after \(String(format: "%.2f", d)) s" : "the comparison ends with A")
            PlayerApp.printError(line)
        }
    }
}
