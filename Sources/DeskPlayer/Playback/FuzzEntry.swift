// SPDX-License-Identifier: GPL-3.0-or-later
#if DESKPLAYER_FUZZ
import CFFmpeg
import Foundation
import Media

/// libFuzzer over the open-probe-decode path (`make fuzz`), compiled only with
/// -DDESKPLAYER_FUZZ: the binary is then a fuzzer, not the player
/// (App/FuzzTargets.swift is its entry and chooses this target or another).
///
/// Each input is written to a file in /dev/shm and played the way a tile
/// plays it, minus SDL: `PlayerItem` opens and probes it (MediaInput, stream
/// choice, decoder set-up and the size and rate checks), its `ItemPipeline`
/// demuxes and decodes on its own threads, video through the scaler at
/// 64x48, audio through the resampler into the ring, and a loop pass and one
/// seek go through the same code the player uses. A bounded amount is read
/// (frames, samples, wall time), then the item is cancelled and freed.
package enum FuzzEntry {
    /// Scratch file for the current input (libFuzzer runs one input at a time).
    static let path: String = {
        let dir = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        return "\(dir)/deskplayer-fuzz-\(getpid())"
    }()

    /// Plays the input, then frees what it made before returning: here,
    /// once this function holds the last references, not on a thread that
    /// may still be tearing them down when libFuzzer's leak check after the
    /// input (-detect_leaks) looks. The pipeline's threads let go of it
    /// before `cancel` (its `stop`) returns; the opening thread lets go of
    /// the item before its `loaded` signal, which this waits on.
    package static func play(_ data: UnsafeRawBufferPointer) {
        guard FileManager.default.createFile(atPath: path, contents: Data(data)) else { return }
        defer { unlink(path) }
        var preferences = ItemPreferences()
        preferences.forwardBufferDuration = 0.5
        preferences.videoDecoderThreads = 1
        var item: PlayerItem? = PlayerItem(path, preferences: preferences)
        var pipeline: AnyObject? = item.flatMap(playFile)
        item?.cancel()
        if let loaded = item?.loaded {
            let deadline = Date(timeIntervalSinceNow: 2)
            while deadline.timeIntervalSinceNow > 0 {
                let seen = loaded.generation
                if isKnownUniquelyReferenced(&item) && (pipeline == nil || isKnownUniquelyReferenced(&pipeline)) { break }
                loaded.wait(after: seen, timeout: deadline.timeIntervalSinceNow)
            }
        }
        pipeline = nil
        item = nil
    }

    /// A subtitle file (`--sub-file`, or one found beside the video): read
    /// whole into a track as the item reads it, then drawn at a few times
    /// onto a small picture (libass for text, the bitmap path for PGS).
    package static func loadSubtitle(_ data: UnsafeRawBufferPointer) {
        let file = path + ".srt"
        guard FileManager.default.createFile(atPath: file, contents: Data(data)) else { return }
        defer { unlink(file) }
        let tracks = SubtitleTracks(videoWidth: 64, videoHeight: 48)
        guard (try? SubtitleFile.load(file, id: 1, into: tracks)) != nil else { return }
        tracks.selected = 1
        let picture = PictureBuffer(width: 64, height: 48)
        for seconds in [0.0, 0.1, 1, 60, 3600] {
            _ = tracks.activeText(at: MediaTime(seconds: seconds))
            tracks.draw(on: picture, at: MediaTime(seconds: seconds), warning: { _ in })
        }
    }

    /// Reads what the pipeline produces, as a player would but as fast as it
    /// can; seeks once partway. Returns when both streams drained or a bound
    /// is hit, with the pipeline it played (nil: the item did not open).
    private static func playFile(_ item: PlayerItem) -> AnyObject? {
        item.setPasses(2)  // the loop seam path too
        item.load()
        guard item.waitUntilLoaded(timeout: 5) == .readyToPlay, let pipeline = item.pipeline else { return nil }
        pipeline.setDisplaySize(width: 64, height: 48)
        // Subtitles drawn onto the pictures (text through libass, or bitmaps).
        if let subtitle = item.tracks.first(where: { $0.kind == .subtitle }) { item.selectSubtitleTrack(subtitle.id) }
        let channels = pipeline.audioRing.format.channels
        let buffer = UnsafeMutablePointer<Float>.allocate(capacity: 1024 * channels)
        defer { buffer.deallocate() }
        let deadline = HostTime.now() + 1_500_000_000
        var videoFrames = 0, audioFrames = 0, seeked = false
        // Every frame is made into a picture, as a view would (the scaler is fuzzed too).
        let maker = FramePictureMaker(), picture = PictureBuffer(width: 64, height: 48)
        while HostTime.now() < deadline {
            let audioSeen = pipeline.audioRing.changed.generation
            var progressed = false
            if let frame = pipeline.frames.pop() {
                _ = frame.pts.seconds + frame.duration.seconds
                _ = maker.make(frame, width: 64, height: 48, into: picture)
                videoFrames += 1
                progressed = true
            }
            let (count, _, _) = pipeline.audioRing.read(into: buffer, frames: 1024)
            if count > 0 {
                audioFrames += count
                progressed = true
            }
            if !seeked && (videoFrames >= 8 || audioFrames >= 9600) {
                seeked = true
                pipeline.seek(to: MediaTime(value: 1, timescale: 2), pass: 0)
                // And an audio track switch, where there is another track.
                if let other = item.tracks.first(where: { $0.kind == .audio && $0.id != item.selectedAudioTrack }) {
                    _ = pipeline.selectAudioTrack(other.id, playhead: MediaTime(value: 1, timescale: 2))
                }
            }
            let videoDone = !pipeline.hasVideo || pipeline.frames.isDrained
            let audioDone = !pipeline.hasAudio || pipeline.audioRing.isDrained
            if (videoDone && audioDone) || videoFrames > 200 || audioFrames > 48_000 * 8 { break }
            // Nothing was ready: wait for the decoders, on the frame queue
            // while video is still coming (the 10 ms bound lets audio waiting
            // in its ring be read), else on the ring.
            if !progressed {
                if !videoDone {
                    pipeline.frames.waitForFrame(timeout: 0.01)
                } else {
                    pipeline.audioRing.changed.wait(after: audioSeen, timeout: 0.1)
                }
            }
        }
        _ = item.takeWarnings()
        return pipeline
    }
}

#endif
