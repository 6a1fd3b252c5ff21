// SPDX-License-Identifier: GPL-3.0-or-later
import App

// The program starts in `Main.main` (CommandLine.swift), except in the fuzzer
// build (`make fuzz`, -DDESKPLAYER_FUZZ): there libFuzzer's own `main` runs
// and calls LLVMFuzzerTestOneInput (App/FuzzTargets.swift, which feeds it to Playback/FuzzEntry.swift: the engine's
// open-probe-decode path, linked in with Playback) for each input.
#if !DESKPLAYER_FUZZ
@main extension Main {}
#endif
