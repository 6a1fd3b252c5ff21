// SPDX-License-Identifier: GPL-3.0-or-later
import Media

/// A segment that could not be read is skipped (a short gap): say so.
final class StreamProblemsFeature: AppFeature {
    init(_ core: AppCore) {}

    func update(_ core: AppCore, at now: UInt64) {
        for problem in FFmpegLog.takeStreamProblems() { core.report("stream: " + problem) }
    }
}
