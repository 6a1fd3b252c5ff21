// SPDX-License-Identifier: GPL-3.0-or-later

extension CommandController {
    /// The camera's recordings (`record`, `R`), kept with the controller (FeatureStates).
    var recording: RecordingControl { features.shared(RecordingControl.init) }
}
