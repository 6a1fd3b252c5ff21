// SPDX-License-Identifier: GPL-3.0-or-later

/// What the features keep beside the controller, each found by its type, so
/// that the controller has no field of any feature's: a feature adds a
/// property on `CommandController` in its own folder that reads its state
/// here (`controller.recording`, `controller.pips`). Main thread only.
final class FeatureStates {
    private var states: [ObjectIdentifier: AnyObject] = [:]

    /// The state of type T, made the first time it is asked for.
    func shared<T: AnyObject>(_ make: () -> T) -> T {
        if let state = states[ObjectIdentifier(T.self)] as? T { return state }
        let state = make()
        states[ObjectIdentifier(T.self)] = state
        return state
    }

    /// A state set from outside (the window's, the options'), nil until then.
    subscript<T: AnyObject>(_ type: T.Type) -> T? {
        get { states[ObjectIdentifier(type)] as? T }
        set { states[ObjectIdentifier(type)] = newValue }
    }
}
