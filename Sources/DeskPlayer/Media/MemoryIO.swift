// SPDX-License-Identifier: GPL-3.0-or-later
import CFFmpeg
import Foundation

/// Owns an AVIOContext that reads bytes held in memory (a stream segment
/// read whole), seekable, for an input opened on them. Used by the one
/// thread that reads that input.
final class MemoryIO {
    fileprivate final class Reader {
        let bytes: Data
        var position = 0
        init(_ bytes: Data) { self.bytes = bytes }
    }

    private(set) var context: UnsafeMutablePointer<AVIOContext>?
    private let reader: Reader

    init(_ bytes: Data) throws(MediaError) {
        reader = Reader(bytes)
        let size = 32768
        guard let buffer = av_malloc(size)?.assumingMemoryBound(to: UInt8.self) else { throw MediaError("out of memory (reader)") }
        guard let context = avio_alloc_context(buffer, Int32(size), 0, Unmanaged.passUnretained(reader).toOpaque(),
                                               memoryRead, nil, memorySeek) else {
            av_free(buffer)
            throw MediaError("out of memory (reader)")
        }
        context.pointee.seekable = AVIO_SEEKABLE_NORMAL
        self.context = context
    }

    deinit {
        if let context { av_freep(&context.pointee.buffer) }
        avio_context_free(&context)
    }

    fileprivate static func reader(_ opaque: UnsafeMutableRawPointer) -> Reader {
        Unmanaged<Reader>.fromOpaque(opaque).takeUnretainedValue()
    }

    fileprivate static func read(_ opaque: UnsafeMutableRawPointer, _ buffer: UnsafeMutablePointer<UInt8>, _ size: Int) -> Int32 {
        let r = reader(opaque)
        guard r.position < r.bytes.count else { return DP_AVERROR_EOF }
        let n = min(size, r.bytes.count - r.position)
        r.bytes.copyBytes(to: buffer, from: r.position..<(r.position + n))
        r.position += n
        return Int32(n)
    }

    fileprivate static func seek(_ opaque: UnsafeMutableRawPointer, _ offset: Int64, _ whence: Int32) -> Int64 {
        let r = reader(opaque)
        var position = r.position
        switch whence & ~AVSEEK_FORCE {
        case AVSEEK_SIZE: return Int64(r.bytes.count)
        case SEEK_SET: position = Int(offset)
        case SEEK_CUR: position += Int(offset)
        case SEEK_END: position = r.bytes.count + Int(offset)
        default: return -1
        }
        guard position >= 0, position <= r.bytes.count else { return -1 }
        r.position = position
        return Int64(position)
    }
}

private let memoryRead: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int32) -> Int32 = {
    opaque, buffer, size in
    guard let opaque, let buffer else { return DP_AVERROR_EOF }
    return MemoryIO.read(opaque, buffer, Int(size))
}

private let memorySeek: @convention(c) (UnsafeMutableRawPointer?, Int64, Int32) -> Int64 = { opaque, offset, whence in
    guard let opaque else { return -1 }
    return MemoryIO.seek(opaque, offset, whence)
}
