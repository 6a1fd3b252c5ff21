#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-3.0-or-later
"""Which time stretcher DeskPlayer's speed control uses: libavfilter's
`atempo` (two in a chain, each at the square root of the speed, so 0.25x to
4x is always one graph and a change is a runtime command) against FFmpeg's
`rubberband` filter (librubberband), measured in the same run through the
ffmpeg command line, which runs the same libavfilter DeskPlayer links.

For each speed:
  - a 1000 Hz tone: the pitch heard (FFT peak, interpolated) as an error in
    percent, and what is not the tone (THD+N: energy outside 1000 Hz +-25 Hz,
    in dB below the whole), over the middle of the output;
  - speech/music-like sound (a 220 Hz harmonic series and pink noise, both
    gated at a syllable rate of 4 Hz): the fundamental's pitch error, and how
    far the long-term spectrum moved (RMS difference of third-octave band
    levels, dB; 0 is a perfect stretch);
  - CPU: user+system seconds to stretch 60 s of 48 kHz stereo, and the
    output length against the ideal (input / speed).

Usage: bench/stretchers.py [--json bench/out/stretchers.json]   (`make bench`)
"""
import json, os, resource, subprocess, sys
import numpy as np

SR = 48000
SPEEDS = [0.5, 0.75, 1.5, 2.0, 3.0]


def atempo_chain(speed):
    half = speed ** 0.5
    return f"atempo={half:.6f},atempo={half:.6f}"


STRETCHERS = {
    "atempo x2 (chain)": atempo_chain,
    "rubberband": lambda speed: f"rubberband=tempo={speed}",
    "rubberband smooth": lambda speed: f"rubberband=tempo={speed}:transients=smooth",
}


def stretch(filters, signal, channels=1):
    """Runs `signal` (float32, interleaved) through ffmpeg's filters; returns
    the output and the child CPU seconds it took."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    out = subprocess.run(["ffmpeg", "-v", "error", "-f", "f32le", "-ar", str(SR), "-ac", str(channels), "-i", "-",
                          "-af", filters, "-f", "f32le", "-ar", str(SR), "-ac", str(channels), "-"],
                         input=signal.astype("<f4").tobytes(), capture_output=True, check=True).stdout
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return np.frombuffer(out, dtype="<f4"), cpu


def peak_frequency(x, near, span=0.3):
    """The strongest frequency within `near` +-span (relative), interpolated."""
    win = np.hanning(len(x))
    spectrum = np.abs(np.fft.rfft(x * win))
    freqs = np.fft.rfftfreq(len(x), 1 / SR)
    band = np.nonzero((freqs > near * (1 - span)) & (freqs < near * (1 + span)))[0]
    k = band[np.argmax(spectrum[band])]
    a, b, c = np.log(spectrum[k - 1:k + 2] + 1e-20)
    offset = 0.5 * (a - c) / (a - 2 * b + c)
    return (k + offset) * SR / len(x)


def thd_n(x, f0=1000.0, width=25.0):
    win = np.hanning(len(x))
    power = np.abs(np.fft.rfft(x * win)) ** 2
    freqs = np.fft.rfftfreq(len(x), 1 / SR)
    inside = power[np.abs(freqs - f0) <= width].sum()
    return 10 * np.log10(max(power.sum() - inside, 1e-20) / power.sum())


def third_octave_levels(x):
    power = np.abs(np.fft.rfft(x * np.hanning(len(x)))) ** 2 / len(x)
    freqs = np.fft.rfftfreq(len(x), 1 / SR)
    centres = 1000 * 2 ** (np.arange(-17, 14) / 3)  # 20 Hz .. 20 kHz
    levels = []
    for c in centres:
        band = power[(freqs >= c * 2 ** (-1 / 6)) & (freqs < c * 2 ** (1 / 6))]
        levels.append(10 * np.log10(band.sum() + 1e-20))
    return np.array(levels)


def middle(x, seconds):
    n = int(seconds * SR)
    start = max(0, (len(x) - n) // 2)
    return x[start:start + n]


def speechlike(seconds):
    rng = np.random.default_rng(19)
    t = np.arange(int(seconds * SR)) / SR
    harmonic = sum(np.sin(2 * np.pi * 220 * k * t) / k for k in range(1, 12)) * 0.15
    white = rng.standard_normal(len(t))
    pink = np.fft.irfft(np.fft.rfft(white) / np.sqrt(np.maximum(np.fft.rfftfreq(len(t), 1 / SR), 20)), len(t))
    pink *= 0.1 / np.std(pink)
    gate = 0.55 + 0.45 * np.sin(2 * np.pi * 4 * t)  # syllables
    return ((harmonic + pink) * gate).astype(np.float32)


def main():
    tone = (0.5 * np.sin(2 * np.pi * 1000 * np.arange(6 * SR) / SR)).astype(np.float32)
    speech = speechlike(6)
    speech_levels = third_octave_levels(middle(speech, 2))
    long_stereo = np.repeat(speechlike(60), 2)
    rows = []
    for name, filters_for in STRETCHERS.items():
        for speed in SPEEDS:
            filters = filters_for(speed)
            out, _ = stretch(filters, tone)
            mid = middle(out, 1.0)
            pitch_error = (peak_frequency(mid, 1000) / 1000 - 1) * 100
            noise_db = thd_n(mid)
            out_speech, _ = stretch(filters, speech)
            f0 = peak_frequency(middle(out_speech, 2), 220, span=0.1)
            spectral = float(np.sqrt(np.mean((third_octave_levels(middle(out_speech, 2)) - speech_levels) ** 2)))
            out_long, cpu = stretch(filters, long_stereo, channels=2)
            ideal = len(long_stereo) / 2 / speed
            rows.append({"stretcher": name, "speed": speed, "filters": filters,
                         "tone_pitch_error_pct": round(float(pitch_error), 3),
                         "tone_thd_n_db": round(float(noise_db), 1),
                         "speech_f0_error_pct": round(float((f0 / 220 - 1) * 100), 3),
                         "speech_spectrum_rms_db": round(spectral, 2),
                         "cpu_s_per_60s_stereo": round(cpu, 2),
                         "length_error_ms": round((len(out_long) / 2 - ideal) / SR * 1000, 1)})
    print("Time stretchers, through the ffmpeg command line (the same libavfilter DeskPlayer links):")
    header = f"{'stretcher':20} {'speed':>5} {'tone pitch %':>12} {'tone THD+N dB':>13} {'speech f0 %':>11} " \
             f"{'spectrum dB':>11} {'CPU s/60 s':>10} {'length ms':>9}"
    print(header)
    for r in rows:
        print(f"{r['stretcher']:20} {r['speed']:5.2f} {r['tone_pitch_error_pct']:12.3f} {r['tone_thd_n_db']:13.1f} "
              f"{r['speech_f0_error_pct']:11.3f} {r['speech_spectrum_rms_db']:11.2f} {r['cpu_s_per_60s_stereo']:10.2f} "
              f"{r['length_error_ms']:9.1f}")
    if "--json" in sys.argv:
        path = sys.argv[sys.argv.index("--json") + 1]
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "w") as f:
            json.dump({"stretchers": {"speeds": SPEEDS, "rows": rows}}, f, indent=2)
    return 0


if __name__ == "__main__":
    sys.exit(main())
