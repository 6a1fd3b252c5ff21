/// Sets up a comparison (`--compare`): its settings shared by the window
/// (which draws them) and the controller (whose properties change them),
/// its keys before the usual ones, and pictures the difference can read.
enum CompareSession {
    static func start(_ mode: CompareState.Mode, _ options: DeskPlayerCommand, window: MainWindow,
                      controller: CommandController, factory: TileFactory) {
        let state = CompareState(mode: mode, count: options.files.count)
        state.diffGain = options.compareDiffGain
        controller.compare = state
        let keys = Set(CompareKeys.bindings.map(\.key))
        controller.bindings = CompareKeys.bindings + controller.bindings.filter { $0.section != .main || !keys.contains($0.key) }
        window.compare = CompareView(state: state)
        // The difference is made from BGRA pictures at the size shown; a
        // GPU's YUV textures at the video's size would need a read back.
        factory.picturesForGPU = false
    }
}
