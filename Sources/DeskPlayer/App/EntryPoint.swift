// The program starts in `Main.main` (CommandLine.swift), except in the fuzzer
// build (`make fuzz`, -DDESKPLAYER_FUZZ): there libFuzzer's own `main` runs
// and calls LLVMFuzzerTestOneInput (FuzzEntry.swift) for each input.
#if !DESKPLAYER_FUZZ
@main extension Main {}
#endif
