// SPDX-License-Identifier: GPL-3.0-or-later
import Foundation

/// A radix-2 complex FFT (iterative Cooley–Tukey, in place), enough for
/// cross-correlating two sounds; Linux has no vDSP, and a few hundred
/// thousand points once per alignment do not need FFTW.
enum FFT {
    /// The smallest power of two at least `n`.
    static func size(atLeast n: Int) -> Int {
        var size = 1
        while size < n { size <<= 1 }
        return size
    }

    /// Transforms `re` + i·`im` in place (both a power of two long, equal);
    /// `inverse` uses the opposite sign and divides by the length.
    static func transform(_ re: inout [Double], _ im: inout [Double], inverse: Bool = false) {
        let n = re.count
        guard n > 1, n & (n - 1) == 0, im.count == n else { return }
        re.withUnsafeMutableBufferPointer { r in
            im.withUnsafeMutableBufferPointer { i in
                guard let r = r.baseAddress, let i = i.baseAddress else { return }
                run(r, i, n, inverse: inverse)
            }
        }
    }

    private static func run(_ re: UnsafeMutablePointer<Double>, _ im: UnsafeMutablePointer<Double>, _ n: Int, inverse: Bool) {
        // Bit-reversed order.
        var j = 0
        for i in 1..<n {
            var bit = n >> 1
            while j & bit != 0 {
                j ^= bit
                bit >>= 1
            }
            j |= bit
            if i < j {
                (re[i], re[j]) = (re[j], re[i])
                (im[i], im[j]) = (im[j], im[i])
            }
        }
        // Twiddles for the largest stage; a stage of length `len` uses every (n / len)-th.
        let half = n / 2
        let sign = inverse ? 1.0 : -1.0
        var cosines = [Double](repeating: 0, count: half), sines = [Double](repeating: 0, count: half)
        for k in 0..<half {
            let angle = sign * 2 * Double.pi * Double(k) / Double(n)
            cosines[k] = cos(angle)
            sines[k] = sin(angle)
        }
        cosines.withUnsafeBufferPointer { c in
            sines.withUnsafeBufferPointer { s in
                var len = 2
                while len <= n {
                    let step = n / len, halfLen = len / 2
                    var start = 0
                    while start < n {
                        for k in 0..<halfLen {
                            let wr = c[k * step], wi = s[k * step]
                            let a = start + k, b = a + halfLen
                            let tr = re[b] * wr - im[b] * wi
                            let ti = re[b] * wi + im[b] * wr
                            re[b] = re[a] - tr
                            im[b] = im[a] - ti
                            re[a] += tr
                            im[a] += ti
                        }
                        start += len
                    }
                    len <<= 1
                }
            }
        }
        if inverse {
            let scale = 1 / Double(n)
            for k in 0..<n {
                re[k] *= scale
                im[k] *= scale
            }
        }
    }
}
