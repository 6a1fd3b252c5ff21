// SPDX-License-Identifier: GPL-3.0-or-later
import Control
import Media

/// The camera's commands and key (FeatureCommand).
extension RecordingFeature {
    static var commands: [FeatureCommand] {
        [
            // Starts or stops recording the target tile's camera.
            FeatureCommand("record") { _, controller, target, _ throws(CommandError) in
                try controller.recording.toggle(try controller.resolve(target).first, controller: controller)
                return .null
            },
            // Opens a camera in the target tile ("Take video…"): the device
            // (/dev/videoN or FORMAT:URL), or the first camera found.
            FeatureCommand("camera", [FeatureCommand.arg("device", .text, optional: true)]) { a, controller, target, source throws(CommandError) in
                try controller.openCamera(try a.optionalText(0), target, source)
                return .null
            },
            // Compares the latest recording with the one before it ("Compare with previous take").
            FeatureCommand("compare-takes") { _, controller, _, _ throws(CommandError) in
                try controller.recording.compareTakes(controller: controller)
                return .null
            },
        ]
    }

    /// "Take video…" beside the other ways to a video; recording and the
    /// takes' comparison after the screenshots, while a camera plays.
    static var menu: [FeatureMenu] {
        [
            FeatureMenu(after: "Videos…", entries: [MenuTable.entry("Take video…", "camera")]),
            FeatureMenu(after: "Screenshot of the window", entries: [
                MenuTable.entry("Record the camera / stop (R)", "record", when: "camera"),
                MenuTable.entry("Compare with previous take", "compare-takes", when: "recording-path"),
            ]),
        ]
    }

    static var keys: [KeyBinding] {
        [KeyBindings.binding(key: "R", "record", help: trNoop("record the camera: start / stop (then the take plays)"))]
    }
}

extension Command {
    /// `record`, as the camera bar's red button sends it.
    static var record: Command { .feature(.init(name: "record")) }
    /// `camera [DEVICE]`, as "Take video…" sends it.
    static func camera(_ device: String?) -> Command { .feature(.init(name: "camera", arguments: device.map { [.string($0)] } ?? [])) }
}
