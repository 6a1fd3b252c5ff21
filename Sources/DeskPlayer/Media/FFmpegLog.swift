import CFFmpeg

/// FFmpeg logs to stderr by itself; DeskPlayer reports problems in its own
/// one-line form, so FFmpeg stays quiet unless asked (`--verbose`).
enum FFmpegLog {
    static func configure(verbose: Bool) {
        av_log_set_level(verbose ? AV_LOG_WARNING : AV_LOG_QUIET)
    }
}
