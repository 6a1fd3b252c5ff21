// SPDX-License-Identifier: GPL-3.0-or-later
import Media
import CSDL2
import Foundation
import Synchronization

/// Keeps the sound going while the desktop's audio comes and goes: the
/// audio server restarts, a device is unplugged, there is no server yet.
///
/// Once playing, the mixer always has an output. A device that SDL reports
/// gone, or whose callback has not run for 0.3 s (the watchdog),
/// hands the mixer at once to the silent stand-in, which plays it on the
/// host clock, so every player's picture, loop and queue goes on at its
/// pace. Every half second the chosen device (else the default) is opened
/// again; once its callback is being called steadily it takes the mixer
/// back, and the feed lines its first buffer up with the time due (no stale
/// samples, a 10 ms fade-in). With no audio at all at the start (or a first
/// device that does not start pulling within 3 s) the stand-in plays until
/// one does. Each change is one notice for stderr and the window.
///
/// While nothing plays (`setResting`), the device is closed after a short
/// grace and the thread waits with no timeout: SDL's audio thread wakes for
/// every buffer even when it only plays silence, where mpv corks its stream.
/// Playing again opens it as at the start: the players wait for its first
/// pulls (the clock is anchored by what it renders), so nothing jumps, and
/// the feed's fade-in starts the sound without a click. SDL's disk driver
/// stays open (opening it again would truncate its file).
///
/// Every SDL audio call is made on this object's own thread, so an audio
/// server that hangs never blocks the window. Thread-safe (Mutex).
package final class AudioOutput: Sendable {
    /// Something to tell the user, once (not once per retry).
    package struct Notice: Sendable, Equatable {
        /// The line for stderr.
        package let line: String
        /// The short message for the window.
        package let short: String
    }

    /// One entry of `audio-device-list` (mpv's name and description).
    package struct Device: Sendable, Equatable {
        package let name: String
        package let description: String
    }

    /// mpv's word for the system's default device.
    package static let auto = "auto"

    private struct Shared {
        /// The device asked for (nil: the default).
        package var wanted: String?
        /// Open the device again (the choice changed).
        package var reopen = false
        package var devices: [String] = []
        package var driver: String?
        /// A device plays the mixer now.
        package var live = false
        package var notices: [Notice] = []
        package var stop = false
        /// Since when nothing plays (nil: something does).
        package var restingSince: UInt64?
    }

    let feed: AudioFeed
    private let shared: Mutex<Shared>
    private let standIn: SilentOutput
    private let finished = DispatchSemaphore(value: 0)
    /// Wakes the output thread when something it acts on changes (stop, the
    /// device asked for, resting): it waits on it, with no timeout at rest.
    private let nudge = DispatchSemaphore(value: 0)
    /// How long nothing plays before the device closes: a pause and play a
    /// moment later (a frame step, a quick toggle) keep it open.
    private let restGraceNanos: UInt64 = 1_000_000_000
    private let retryNanos: UInt64 = 500_000_000
    /// A device's callback silent this long is taken for gone. The clock
    /// runs on meanwhile, and the stand-in then reads through the audio due
    /// in the gap: near what the players' audio rings hold (0.5 s) a
    /// decoder late on a busy machine leaves them short and the pictures
    /// wait (seen at 0.4 s). Shorter would risk taking a device that is
    /// only slow for lost (SDL runs its audio thread at a high priority).
    private let watchdogSeconds = 0.3
    /// A device that has not started pulling audio by then is closed and tried again.
    private let warmUpLimitNanos: UInt64 = 8_000_000_000
    /// How long the players wait for the first device to start pulling
    /// before they play on without it (PulseAudio's null sink takes up to 2 s).
    private let firstPullNanos: UInt64 = 3_000_000_000
    /// How long a device coming back must pull without a pause before it
    /// takes over (about five callbacks), so a server that pulls a few
    /// buffers and stalls again does not flap between lost and back. A
    /// null sink's one pull at the open and its pause of up to 2 s after
    /// are waited out by the three-call rule in `warmUp`. (At 0.3 s this
    /// wait was most of the time to sound on a server that pulls at once.)
    private let steadyNanos: UInt64 = 100_000_000

    /// Starts the output thread; sound starts as soon as a device opens.
    /// `device`: the name to open (nil or "auto": the default).
    package init(mixer: any AudioOutputSource, device: String?) {
        feed = AudioFeed(mixer: mixer)
        standIn = SilentOutput(feed: feed, owner: 1)
        shared = Mutex(Shared(wanted: device == AudioOutput.auto ? nil : device))
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "deskplayer-audio-output"
        thread.start()
    }

    /// Stops the thread and closes the device (before SDL quits).
    package func shutDown() {
        let already = shared.withLock { s -> Bool in
            defer { s.stop = true }
            return s.stop
        }
        nudge.signal()
        if !already { finished.wait() }
    }

    /// The notices since the last call (main thread).
    package func takeNotices() -> [Notice] {
        shared.withLock { s in
            defer { s.notices.removeAll() }
            return s.notices
        }
    }

    /// The device asked for: a name, or "auto".
    package var wantedDevice: String { shared.withLock { $0.wanted } ?? AudioOutput.auto }

    /// Asks for another device (mpv's `audio-device`); the switch keeps the
    /// players' time (the stand-in plays while the new one opens).
    package func setWantedDevice(_ name: String) {
        let wanted = name == AudioOutput.auto ? nil : name
        let changed = shared.withLock { s -> Bool in
            guard s.wanted != wanted else { return false }
            s.wanted = wanted
            s.reopen = true
            return true
        }
        if changed { nudge.signal() }
    }

    /// Whether anything plays (main thread, every turn it knows): after a
    /// second of nothing the device closes; playing reopens it at once.
    package func setResting(_ resting: Bool) {
        let changed = shared.withLock { s -> Bool in
            guard (s.restingSince != nil) != resting else { return false }
            s.restingSince = resting ? HostTime.now() : nil
            return true
        }
        if changed { nudge.signal() }
    }

    /// True while a device plays the mixer (false during an outage).
    package var isLive: Bool { shared.withLock { $0.live } }

    /// mpv's `audio-device-list`: "auto" first, then what the driver sees.
    package var deviceList: [Device] {
        let (names, driver) = shared.withLock { ($0.devices, $0.driver) }
        return [Device(name: AudioOutput.auto, description: "Autoselect device")]
            + names.map { Device(name: $0, description: "\($0) (\(driver ?? "SDL"))") }
    }

    /// `--audio-device=help`: the list as mpv prints it. Opens SDL's audio
    /// for the question only. Returns false when there is no audio at all.
    package static func printDeviceList() -> Bool {
        guard SDL_InitSubSystem(SDL_INIT_AUDIO) == 0 else {
            FileHandle.standardError.write(Data("deskplayer: \(SDLError("no audio output").message)\n".utf8))
            return false
        }
        defer { SDL_QuitSubSystem(SDL_INIT_AUDIO) }
        let driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) } ?? "SDL"
        print("List of detected audio devices:")
        print("  'auto' (Autoselect device)")
        for name in currentDeviceNames() { print("  '\(name)' (\(driver))") }
        return true
    }

    private static func currentDeviceNames() -> [String] {
        (0..<max(0, SDL_GetNumAudioDevices(0))).compactMap { i in SDL_GetAudioDeviceName(i, 0).map { String(cString: $0) } }
    }

    // MARK: The output thread

    /// What the thread keeps between passes.
    private struct Keeper {
        package var device: AudioDevice?
        /// Set while the device opened is not yet pulling audio steadily.
        package var warmingSince: UInt64?
        /// Since when the warming device's callback has been called without a pause.
        package var pullingSince: UInt64?
        package var nextTry: UInt64 = 0
        package var initialised = false
        /// Why there is no sound, once announced (nil: sound, or not said yet).
        package var outage: String?
        package var nextOwner: AudioFeed.Owner = 2
        /// The name last said to be missing (said once).
        package var missingSaid: String?
        /// A device has played: the next one to take over is "back", not "found".
        package var everLive = false
        /// Nothing plays and the device (or the stand-in) is stopped for it.
        package var asleep = false
        /// The driver's devices may close at rest (not the disk writer's).
        package var closesAtRest = true
    }

    private func run() {
        // Nobody renders until the first device pulls (or cannot be had):
        // the players wait for it as they would for any device starting, so
        // not a sample of the start is lost.
        var k = Keeper()
        while true {
            let (stop, wanted, reopen, restingSince) = shared.withLock { s -> (Bool, String?, Bool, UInt64?) in
                defer { s.reopen = false }
                return (s.stop, s.wanted, s.reopen, s.restingSince)
            }
            if stop { break }
            let now = HostTime.now()
            if let since = restingSince {
                if !k.asleep, k.closesAtRest, now &- since >= restGraceNanos { rest(&k) }
                if k.asleep {
                    nudge.wait()
                    continue
                }
            } else if k.asleep {
                // Playing again: open at once, the players waiting for its first pulls.
                k.asleep = false
                k.nextTry = now
            }
            if reopen, k.device != nil {
                fallBack(&k)
                k.nextTry = now
            }
            if let device = k.device {
                if let since = k.warmingSince {
                    warmUp(device, since: since, &k, now: now)
                } else {
                    watch(device, &k, now: now)
                }
            } else if now >= k.nextTry {
                k.nextTry = now + retryNanos
                open(wanted, &k, now: now)
            }
            // The watchdog looks every 10 ms while anything may play.
            _ = nudge.wait(timeout: .now() + .milliseconds(10))
        }
        standIn.stop()
        k.device = nil
        if k.initialised { SDL_QuitSubSystem(SDL_INIT_AUDIO) }
    }

    /// A device just opened: it takes the mixer once its callback is being
    /// called steadily (a PulseAudio null sink, for one, pulls once and then
    /// not until its idle 2 s block has played; the stand-in keeps time meanwhile).
    private func warmUp(_ device: AudioDevice, since: UInt64, _ k: inout Keeper, now: UInt64) {
        guard device.isConnected, now &- since < warmUpLimitNanos else {
            k.device = nil
            k.warmingSince = nil
            k.pullingSince = nil
            return
        }
        if feed.owner == 0 && now &- since > firstPullNanos {
            // The first device is slow to start: play on without it meanwhile.
            noSound("audio device \(device.name.map { "'\($0)'" } ?? "(default)") does not start", &k)
        }
        let calls = device.link.calls.load(ordering: .relaxed)
        let quiet = AudioOutput.secondsSince(device.link.lastCall.load(ordering: .relaxed), now: now)
        guard calls >= 3, quiet < 4 * device.bufferSeconds else {
            k.pullingSince = nil
            return
        }
        let pulling = k.pullingSince ?? now
        k.pullingSince = pulling
        // At the start the players wait for this device: it takes over at
        // once. After an outage the stand-in keeps time, so the device must
        // first pull steadily for a while (a null sink starts with a pull
        // and a pause of up to 2 s).
        guard feed.owner == 0 || now &- pulling >= steadyNanos else { return }
        k.pullingSince = nil
        feed.setOwner(device.link.owner)
        standIn.stop()
        k.warmingSince = nil
        let name = device.name ?? "default"
        shared.withLock { $0.live = true }
        if k.outage != nil {
            let word = k.everLive ? "back" : "found"
            say(Notice(line: "audio device \(word): \(name)", short: "Audio device \(word)"))
        }
        k.outage = nil
        k.everLive = true
    }

    /// Seconds from `host` to `now`; 0 when the callback stamped `host` after
    /// `now` was read (a wrapping subtraction made that 584 years of silence).
    static func secondsSince(_ host: UInt64, now: UInt64) -> Double {
        host >= now ? 0 : Double(now - host) / 1e9
    }

    /// The device plays: hand over to the stand-in as soon as it is gone or silent.
    private func watch(_ device: AudioDevice, _ k: inout Keeper, now: UInt64) {
        let quiet = AudioOutput.secondsSince(device.link.lastCall.load(ordering: .relaxed), now: now)
        let why: String
        if !device.isConnected {
            why = "removed"
        } else if quiet > max(watchdogSeconds, 10 * device.bufferSeconds) {
            why = String(format: "no callback for %.1f s", quiet)
        } else {
            return
        }
        fallBack(&k)
        k.nextTry = now + retryNanos
        k.outage = why
        say(Notice(line: "audio device lost (\(why)); playing on without sound, retrying every 0.5 s",
                   short: "Audio device lost — retrying"))
    }

    /// Nothing plays: no device and no stand-in renders until something does.
    private func rest(_ k: inout Keeper) {
        feed.setOwner(0)
        standIn.stop()
        k.device = nil
        k.warmingSince = nil
        k.pullingSince = nil
        k.asleep = true
        shared.withLock { $0.live = false }
    }

    /// The stand-in takes the mixer; the device is closed.
    private func fallBack(_ k: inout Keeper) {
        takeOverSilently()
        k.device = nil
        k.warmingSince = nil
        shared.withLock { $0.live = false }
    }

    /// Opens the chosen device, else the default (starting SDL's audio first if it never started).
    private func open(_ wanted: String?, _ k: inout Keeper, now: UInt64) {
        if !k.initialised {
            k.initialised = SDL_InitSubSystem(SDL_INIT_AUDIO) == 0
            guard k.initialised else {
                noSound(SDLError("no audio output").message, &k)
                return
            }
        }
        let names = AudioOutput.currentDeviceNames()
        let driver = SDL_GetCurrentAudioDriver().map { String(cString: $0) }
        k.closesAtRest = driver != "disk"
        shared.withLock { s in
            s.devices = names
            s.driver = driver
        }
        var name = wanted
        if let wanted, !names.contains(wanted) {
            name = nil
            if k.missingSaid != wanted {
                k.missingSaid = wanted
                say(Notice(line: "audio device '\(wanted)' not found; using the default", short: "Audio device '\(wanted)' not found"))
            }
        }
        do {
            k.device = try AudioDevice(name: name, link: AudioDeviceLink(feed: feed, owner: k.nextOwner))
            k.nextOwner += 1
            k.warmingSince = now
        } catch {
            noSound(error.message, &k)
        }
    }

    /// The stand-in plays the mixer (on the host clock) from now on.
    private func takeOverSilently() {
        feed.setOwner(standIn.owner)
        standIn.start()
    }

    private func noSound(_ why: String, _ k: inout Keeper) {
        takeOverSilently()
        guard k.outage == nil else { return }
        k.outage = why
        say(Notice(line: "\(why); playing without sound, retrying every 0.5 s", short: "No audio output — retrying"))
    }

    private func say(_ notice: Notice) {
        shared.withLock { $0.notices.append(notice) }
        MainThreadWake.post()
    }
}
