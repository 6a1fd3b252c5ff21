// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg

/// Owns one opened AVCodecContext for one stream. Created on the loading
/// thread, then used only by that stream's decode thread.
package final class Decoder: @unchecked Sendable {  // made on the loading thread, then used by its one decode thread only
    /// The opened codec context; a new one after `renew`.
    package private(set) var context: UnsafeMutablePointer<AVCodecContext>
    let timeBase: AVRational
    package let codecName: String
    private let codec: UnsafePointer<AVCodec>
    /// The stream's parameters, kept to make the context again (`renew`).
    private let parameters: CodecParameters
    private let threads: Int32
    private let options: [String: String]
    /// How it decodes in hardware (`hwdec`); nil: never (audio, subtitles,
    /// thumbnails and metrics decode in software).
    private var hardwareChoice: HardwareDecoding?
    /// The last choice asked for: a fall back to software changes
    /// `hardwareChoice`, not this, so the same choice is not tried again.
    private var askedChoice: HardwareDecoding?
    private let fault: HardwareFault?
    /// The current context's device; nil: it decodes in software.
    private var hardware: HardwareSession?
    /// A hardware failure met while decoding, acted on after the packet.
    private var hardwareFailure: String?
    /// A `hwdec` change, made before the next packet.
    private var pendingChoice: HardwareDecoding?
    /// Why hardware decoding is not (or no longer) used, said once.
    private var hardwareNotice: String?
    /// What lets a new context take over mid-stream with the same frames.
    private var handOver = ContextHandOver()

    package enum Output {
        case frame
        case needsInput
        case endOfStream
    }

    /// `threads`: 0 lets FFmpeg choose (one big stream), 1 for many small ones.
    /// `options`: decoder options by name (e.g. a subtitle file's `sub_charenc`).
    /// `hardware`: a video stream's `hwdec` (it may change while playing);
    /// `fault`: a simulated device that fails (tests).
    package init(stream: UnsafeMutablePointer<AVStream>, threads: Int32 = 0, options: [String: String] = [:],
                 hardware: HardwareDecoding? = nil, fault: HardwareFault? = nil) throws(MediaError) {
        guard let parameters = stream.pointee.codecpar else { throw MediaError("stream has no codec parameters") }
        let id = parameters.pointee.codec_id
        guard let codec = avcodec_find_decoder(id) else {
            let kind = av_get_media_type_string(parameters.pointee.codec_type).map { String(cString: $0) } ?? "stream"
            let name = id == AV_CODEC_ID_NONE ? "not known to FFmpeg"
                : "'\(avcodec_get_name(id).map { String(cString: $0) } ?? "?")', no decoder installed"
            throw MediaError("unsupported \(kind) codec (\(name))", code: DP_AVERROR_DECODER_NOT_FOUND)
        }
        self.codec = codec
        self.parameters = try CodecParameters(copying: parameters)
        timeBase = stream.pointee.time_base
        codecName = String(cString: codec.pointee.name)
        self.threads = threads
        self.options = Decoder.deterministic(codec).merging(options, uniquingKeysWith: { $1 })
        (hardwareChoice, askedChoice) = (hardware, hardware)
        self.fault = fault
        let opened = try Decoder.openContext(for: hardware, fault: fault, codec, self.parameters, timeBase: timeBase,
                                             threads: threads, options: self.options)
        context = opened.context
        self.hardware = opened.session
        if let why = opened.whyNot, hardware?.saysWhyItFallsBack == true {
            hardwareNotice = "hardware decoding (\(hardware?.name ?? "?")) is not available: \(why); decoding in software"
        }
    }

    /// A context decoding in hardware as `choice` asks, on the first method
    /// that opens and takes the codec, else in software (`whyNot`: what the
    /// methods tried said).
    private static func openContext(for choice: HardwareDecoding?, fault: HardwareFault?, _ codec: UnsafePointer<AVCodec>,
                                    _ parameters: CodecParameters, timeBase: AVRational, threads: Int32,
                                    options: [String: String]) throws(MediaError)
        -> (context: UnsafeMutablePointer<AVCodecContext>, session: HardwareSession?, whyNot: String?) {
        var reasons: [String] = []
        if let choice, choice.choice != .no {
            if let fault {
                let session = try HardwareSession(simulating: fault)
                return (try open(codec, parameters, timeBase: timeBase, threads: threads, options: options,
                                 hardware: session), session, nil)
            }
            let name = String(cString: codec.pointee.name)
            for method in choice.methods(for: codec.pointee.id) {
                do throws(MediaError) {
                    let device = try HardwareDevice(method)
                    guard let format = device.surfaceFormat(for: codec) else {
                        throw MediaError("it cannot decode \(name)")
                    }
                    let session = try HardwareSession(device: device, surfaceFormat: format)
                    return (try open(codec, parameters, timeBase: timeBase, threads: threads, options: options,
                                     hardware: session), session, nil)
                } catch {
                    reasons.append(choice.saysWhyItFallsBack ? error.message : "\(method.rawValue): \(error.message)")
                }
            }
        }
        let context = try open(codec, parameters, timeBase: timeBase, threads: threads, options: options, hardware: nil)
        return (context, nil, reasons.isEmpty ? nil : reasons.joined(separator: "; "))
    }

    /// An opened context of `codec` configured from `parameters`.
    private static func open(_ codec: UnsafePointer<AVCodec>, _ parameters: CodecParameters, timeBase: AVRational,
                             threads: Int32, options: [String: String], hardware: HardwareSession?) throws(MediaError)
        -> UnsafeMutablePointer<AVCodecContext> {
        let name = String(cString: codec.pointee.name)
        guard let allocated = avcodec_alloc_context3(codec) else { throw MediaError("out of memory (decoder)") }
        var ctx: UnsafeMutablePointer<AVCodecContext>? = allocated
        var dictionary: OpaquePointer? = nil
        for (key, value) in options { av_dict_set(&dictionary, key, value, 0) }
        defer { av_dict_free(&dictionary) }
        var ret = avcodec_parameters_to_context(allocated, parameters.pointer)
        if ret >= 0 {
            allocated.pointee.pkt_timebase = timeBase
            allocated.pointee.thread_count = threads
            do throws(MediaError) { try hardware?.configure(allocated) } catch {
                avcodec_free_context(&ctx)
                throw error
            }
            ret = avcodec_open2(allocated, codec, &dictionary)
        }
        guard ret >= 0 else {
            avcodec_free_context(&ctx)
            throw MediaError(code: ret, context: "cannot open \(name) decoder")
        }
        return allocated
    }

    /// Makes the decoder afresh, as it was when opened: what `flush` keeps
    /// goes too. FFmpeg's AAC decoder keeps the last frame's window shape
    /// through a flush (and others their own state), so the first frame of
    /// a loop pass decoded differently from the first pass's (up to 5e-2
    /// of full scale); a new context decodes every pass as the first.
    /// Should it fail (it did not when first opened), a flush does.
    package func renew() {
        guard let fresh = try? Decoder.open(codec, parameters, timeBase: timeBase, threads: threads, options: options,
                                            hardware: hardware)
        else { return flush() }
        var old: UnsafeMutablePointer<AVCodecContext>? = context
        context = fresh
        avcodec_free_context(&old)
        if decodesFast { applyFastDecoding() }
        if skipsNonReference { context.pointee.skip_frame = AVDISCARD_NONREF }
    }

    /// Options that make a decoder give the same samples for the same
    /// packets every time. FFmpeg's AC-3 and E-AC-3 decoders fill the
    /// mantissas the bit stream leaves out with dither from one random
    /// generator that runs on across a loop seam, so every pass (and a
    /// seek back) sounded different; `cons_noisegen` seeds the dither
    /// from each frame's own data instead. Asked of any decoder that has it.
    private static func deterministic(_ codec: UnsafePointer<AVCodec>) -> [String: String] {
        guard var privateClass = codec.pointee.priv_class else { return [:] }
        let found = withUnsafeMutablePointer(to: &privateClass) { pointer in
            av_opt_find(UnsafeMutableRawPointer(pointer), "cons_noisegen", nil, 0, AV_OPT_SEARCH_FAKE_OBJ)
        }
        return found != nil ? ["cons_noisegen": "1"] : [:]
    }

    deinit {
        var c: UnsafeMutablePointer<AVCodecContext>? = context
        avcodec_free_context(&c)
    }

    /// Sends a packet, or nil to start draining. Returns false when the
    /// decoder is full and frames must be received first.
    package func send(_ packet: Packet?) throws(MediaError) -> Bool {
        let ret = avcodec_send_packet(context, packet?.pointer)
        if ret == DP_AVERROR_EAGAIN { return false }
        if ret == DP_AVERROR_EOF { return true }  // already draining
        try MediaError.check(ret, "\(codecName) decoding error")
        return true
    }

    package func receive(into frame: Frame) throws(MediaError) -> Output {
        let ret = avcodec_receive_frame(context, hardware?.surface.pointer ?? frame.pointer)
        if ret == DP_AVERROR_EAGAIN { return .needsInput }
        if ret == DP_AVERROR_EOF { return .endOfStream }
        do { try MediaError.check(ret, "\(codecName) decoding error") } catch {
            // On a GPU, any error may be the GPU's: the software decoder takes over.
            if hardware != nil { hardwareFailure = error.message } else { noteError(error.message) }
            throw error
        }
        if let hardware {
            do { try hardware.copyBack(into: frame) } catch {
                hardwareFailure = error.message
                throw error
            }
        }
        // A frame made from damaged data, FFmpeg's concealment filling in.
        if frame.pointer.pointee.decode_error_flags != 0 || frame.pointer.pointee.flags & AV_FRAME_FLAG_CORRUPT != 0 {
            noteError("\(codecName): damaged frame concealed")
        }
        return .frame
    }

    /// Decoding errors since the last `takeErrors`: packets refused, frames
    /// that failed or came out concealed; with the first one's text.
    private var errorCount = 0
    private var firstError: String?

    private func noteError(_ text: String) {
        errorCount += 1
        if firstError == nil { firstError = text }
    }

    /// The errors noted since the last call, and the first one's text.
    package func takeErrors() -> (count: Int, first: String?) {
        defer { (errorCount, firstError) = (0, nil) }
        return (errorCount, firstError)
    }

    /// Frames no other frame refers to are not decoded (nobody sees the
    /// pictures): the ones that are decoded are exactly what they would be,
    /// so the picture is right again from the next frame shown. From the
    /// next packet on, as `decodesFast`.
    package var skipsNonReference = false {
        didSet {
            guard skipsNonReference != oldValue else { return }
            context.pointee.skip_frame = skipsNonReference ? AVDISCARD_NONREF : AVDISCARD_DEFAULT
        }
    }

    /// Decodes with less care for detail (mpv's `--vd-lavc-skiploopfilter=all`
    /// and `--vd-lavc-fast`): H.264 and HEVC skip their in-loop deblocking
    /// filter. Measured on 720p noisy H.264 scaled to 480x270: 17 % less
    /// decoding CPU at 44 dB PSNR against a full decode scaled the same way,
    /// so it is for pictures shown at half their size or less. Changes take
    /// effect from the next packet (frame threads copy the setting in).
    package var decodesFast = false {
        didSet {
            guard decodesFast != oldValue else { return }
            applyFastDecoding()
        }
    }

    private func applyFastDecoding() {
        context.pointee.skip_loop_filter = decodesFast ? AVDISCARD_ALL : AVDISCARD_DEFAULT
        let fast = DP_AV_CODEC_FLAG2_FAST
        context.pointee.flags2 = decodesFast ? context.pointee.flags2 | fast : context.pointee.flags2 & ~fast
    }

    /// Forgets buffered data (after a seek) so the next packet starts afresh.
    package func flush() {
        avcodec_flush_buffers(context)
        handOver.reset()
    }

    /// Sends `packet` (nil: the end, draining) and hands every frame it
    /// gives to `each`, in `frame` (emptied after each). A frame that fails
    /// ends the packet's frames; errors are counted (`takeErrors`). A
    /// decoder that may decode in hardware makes a `hwdec` change here, and
    /// when the hardware fails it goes on in software with the same frames.
    package func decode(_ packet: Packet?, into frame: Frame, until isAborted: () -> Bool, each: (Frame) -> Void) {
        // From software nothing is kept to send again: the switch waits for
        // a keyframe, and the software context gives out all it holds first.
        if let choice = pendingChoice {
            let fromKept = hardware != nil && handOver.canReplay
            if fromKept || packet?.isKeyframe ?? true {
                pendingChoice = nil
                switchContext(to: choice, drainingFirst: !fromKept, into: frame, until: isAborted, each: each)
            }
        }
        if let packet, hardwareChoice != nil, !handOver.admits(packet, keeping: hardware != nil) { return }
        decodeFrames(packet, into: frame, until: isAborted, each: each)
        if let failure = hardwareFailure {
            fallBackToSoftware(failure, into: frame, until: isAborted, each: each)
        }
    }

    private func decodeFrames(_ packet: Packet?, into frame: Frame, until isAborted: () -> Bool, each: (Frame) -> Void) {
        decode(packet, until: isAborted) {
            while !isAborted(), hardwareFailure == nil, (try? receive(into: frame)) == .frame {
                // Given out already, by the context this one took over from.
                guard handOver.admits(frame) else {
                    frame.unref()
                    continue
                }
                each(frame)
                frame.unref()
            }
        }
    }

    // MARK: Hardware decoding

    /// What decodes now: the method's copy-back name, or `no` (software).
    package var hardwareInUse: String { hardware?.name ?? "no" }

    /// Why hardware decoding is not used, the first time it is asked after that happened.
    package func takeHardwareNotice() -> String? {
        defer { hardwareNotice = nil }
        return hardwareNotice
    }

    /// Decodes as `choice` asks (the `hwdec` property): from the next
    /// packet when a hardware context decodes now, else from the next
    /// keyframe; the frames already given out are not given again. Only
    /// for a decoder made with `hardware`.
    package func setHardware(_ choice: HardwareDecoding) {
        guard askedChoice != nil, choice != askedChoice else { return }
        (askedChoice, pendingChoice) = (choice, choice)
    }

    /// The hardware failed mid-stream: said once, and the software decoder
    /// decodes the packets since the last keyframe again, so the frames
    /// that follow are exactly FFmpeg's.
    private func fallBackToSoftware(_ reason: String, into frame: Frame, until isAborted: () -> Bool,
                                    each: (Frame) -> Void) {
        hardwareFailure = nil
        hardwareNotice = "hardware decoding (\(hardwareInUse)) failed: \(reason); decoding in software from here"
        switchContext(to: .no, into: frame, until: isAborted, each: each)
    }

    /// Opens a context for `choice` in place of the current one and sends
    /// it the kept packets again, leaving out the frames already given.
    /// The old context is not drained mid-run, even when it still works:
    /// draining gives out every frame of the packets sent, a reference
    /// frame before the B-frames that are shown ahead of it, and frames
    /// would go out of order. The new one makes what the old one held back.
    /// With nothing kept (`drainingFirst`: at a keyframe, before it is
    /// sent) the old context is drained, so the frames before it all come.
    private func switchContext(to choice: HardwareDecoding, drainingFirst: Bool = false, into frame: Frame,
                               until isAborted: () -> Bool, each: (Frame) -> Void) {
        hardwareChoice = choice
        guard let opened = try? Decoder.openContext(for: choice, fault: fault, codec, parameters, timeBase: timeBase,
                                                    threads: threads, options: options) else { return }
        if opened.session == nil && hardware == nil {
            // Software before and after: the context stays.
            var unused: UnsafeMutablePointer<AVCodecContext>? = opened.context
            avcodec_free_context(&unused)
            if let why = opened.whyNot, choice.saysWhyItFallsBack {
                hardwareNotice = "hardware decoding (\(choice.name)) is not available: \(why); decoding in software"
            }
            return
        }
        if drainingFirst { decodeFrames(nil, into: frame, until: isAborted, each: each) }
        hardwareFailure = nil
        var old: UnsafeMutablePointer<AVCodecContext>? = context
        context = opened.context
        hardware = opened.session
        avcodec_free_context(&old)
        if decodesFast { applyFastDecoding() }
        if skipsNonReference { context.pointee.skip_frame = AVDISCARD_NONREF }
        for packet in handOver.takeOver() where !isAborted() && hardwareFailure == nil {
            decodeFrames(packet, into: frame, until: isAborted, each: each)
        }
        if let failure = hardwareFailure, hardware != nil {
            fallBackToSoftware(failure, into: frame, until: isAborted, each: each)
        }
    }

    /// Sends a packet (nil drains), letting `receive` take frames whenever
    /// the decoder is full, then once more. A damaged packet is counted
    /// (`takeErrors`), skipped, and decoding goes on (as ffplay and mpv do).
    private func decode(_ packet: Packet?, until isAborted: () -> Bool, receive: () -> Void) {
        while !isAborted() {
            do {
                if try send(packet) { break }
                receive()
                if hardwareFailure != nil { return }
            } catch {
                // On a GPU, a refused packet may be the GPU's doing: the software decoder takes over.
                if hardware != nil { hardwareFailure = error.message } else { noteError(error.message) }
                break
            }
        }
        receive()
    }
}
