import CFFmpeg

/// FFmpeg logs to stderr by itself; DeskPlayer reports problems in its own
/// one-line form, so FFmpeg stays quiet unless asked (`--verbose`).
enum FFmpegLog {
    static func configure(verbose: Bool) {
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
    }
}

/// Memory the decoders freed, handed back to the system (after a player closes).
enum FreedMemory {
    static func release() { dp_release_free_memory() }
}
