// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Which scope the panel shows (the `scope` property).
package enum ScopeKind: String, CaseIterable, Sendable {
    case none
    case histogram
    case waveform
    case vectorscope

    /// libavfilter's scope, drawn at a size the panel shows without a second
    /// scaling step: the histogram 256 levels wide with its three components
    /// stacked; the waveform per column, its width brought to 512 first so a
    /// 4K picture costs what a small one does; the vectorscope 256x256.
    package var chain: String? {
        switch self {
        case .none: return nil
        case .histogram: return "histogram=display_mode=stack:level_height=80:scale_height=8"
        case .waveform: return "scale=512:-2:flags=area,format=yuv444p,waveform=graticule=green:flags=numbers+dots:intensity=0.1"
        case .vectorscope: return "vectorscope=mode=color3:graticule=green:flags=name"
        }
    }
}

/// One scope for the frames of one video: FFmpeg's `histogram`, `waveform`
/// or `vectorscope` in a FilterGraph, its picture converted to BGRA for the
/// screen. Built from the first frame; rebuilt when the frames' size or
/// format change. One thread.
package final class ScopeFilter {
    package let kind: ScopeKind
    private var graph: FilterGraph?
    private var key: (Int32, Int32, Int32)?
    private let output: Frame
    private let scaler = Scaler()

    package init(kind: ScopeKind) throws(MediaError) {
        self.kind = kind
        output = try Frame()
    }

    /// The scope of `frame` (its data stays with the caller) as a BGRA picture.
    package func picture(of frame: Frame, timeBase: AVRational) throws(MediaError) -> PictureBuffer? {
        guard let chain = kind.chain else { return nil }
        let f = frame.pointer.pointee
        let frameKey = (f.width, f.height, f.format)
        if graph == nil || key.map({ $0 != frameKey }) ?? true {
            graph = try FilterGraph(source: .video(width: f.width, height: f.height, format: AVPixelFormat(f.format),
                                                   timeBase: timeBase, sampleAspect: f.sample_aspect_ratio,
                                                   frameRate: AVRational(num: 0, den: 1)),
                                    filters: chain)
            key = frameKey
        }
        guard let graph else { return nil }
        // The graph takes the data over: it gets its own reference.
        let copy = try Frame()
        try MediaError.check(av_frame_ref(copy.pointer, frame.pointer), "cannot hand a frame to the scope")
        try graph.push(copy)
        var picture: PictureBuffer?
        while try graph.pull(into: output) == .frame {
            let made = PictureBuffer(width: Int(output.pointer.pointee.width), height: Int(output.pointer.pointee.height))
            try scaler.scale(output.pointer, into: made)
            picture = made
            output.unref()
        }
        return picture
    }
}
