// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation
import Media

/// Renders a composition offline, as fast as the machine allows, to a 32-bit
/// float WAV file in the device format (AVAssetExportSession). The file is
/// written under an exclusive temporary name in the same folder
/// (`AtomicFile`: unpredictable, `O_EXCL`, never through a link) and renamed
/// at the end, so a failure never leaves a half file under the final name.
package struct AudioExport {
    let composition: Composition
    let format: AudioFormat

    package init(_ composition: Composition, format: AudioFormat = .device) {
        self.composition = composition
        self.format = format
    }

    /// Writes the mix to `url`. `progress` gets the fraction done (0...1)
    /// now and then. Returns the warnings met (sources that failed).
    @discardableResult
    package func write(to url: URL, progress: (Double) -> Void = { _ in }) throws(MediaError) -> [String] {
        let renderer = CompositionRenderer(composition, format: format)
        let bytesPerFrame = 4 * format.channels
        let dataBytes = Int(renderer.totalSamples) * bytesPerFrame
        guard dataBytes < Int(UInt32.max) - 64 else { throw MediaError("the composition is too long for a WAV file") }
        let (descriptor, temporary) = try AtomicFile.createTemporary(beside: url)
        let file = FileHandle(fileDescriptor: descriptor, closeOnDealloc: false)
        var warnings: [String] = []
        do {
            defer { try? file.close() }
            try file.write(contentsOf: header(frames: Int(renderer.totalSamples)))
            let block = 16384
            var samples = [Float](repeating: 0, count: block * format.channels)
            var lastReport = -1.0
            while !renderer.isAtEnd {
                let count = samples.withUnsafeMutableBufferPointer { renderer.render(into: $0.baseAddress!, frames: block) ?? 0 }
                guard count > 0 else { break }
                try samples.withUnsafeBytes { try file.write(contentsOf: Data($0.prefix(count * bytesPerFrame))) }
                let done = Double(renderer.position) / Double(max(renderer.totalSamples, 1))
                if done - lastReport >= 0.01 || renderer.isAtEnd {
                    progress(done)
                    lastReport = done
                }
                warnings += renderer.takeWarnings()
            }
            try file.synchronize()
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw MediaError("cannot write \(url.path): \(error.localizedDescription)")
        }
        try AtomicFile.commit(temporary, to: url)
        return warnings
    }

    /// RIFF/WAVE with a WAVE_FORMAT_IEEE_FLOAT `fmt ` chunk and a `fact` chunk.
    private func header(frames: Int) -> Data {
        let channels = format.channels, rate = format.sampleRate
        let dataBytes = frames * channels * 4
        var d = Data()
        func u32(_ v: Int) { withUnsafeBytes(of: UInt32(v).littleEndian) { d.append(contentsOf: $0) } }
        func u16(_ v: Int) { withUnsafeBytes(of: UInt16(v).littleEndian) { d.append(contentsOf: $0) } }
        d.append(contentsOf: Array("RIFF".utf8)); u32(4 + (8 + 18) + (8 + 4) + (8 + dataBytes))
        d.append(contentsOf: Array("WAVE".utf8))
        d.append(contentsOf: Array("fmt ".utf8)); u32(18)
        u16(3); u16(channels); u32(rate); u32(rate * channels * 4); u16(channels * 4); u16(32); u16(0)
        d.append(contentsOf: Array("fact".utf8)); u32(4); u32(frames)
        d.append(contentsOf: Array("data".utf8)); u32(dataBytes)
        return d
    }
}
