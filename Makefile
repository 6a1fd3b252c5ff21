# DeskPlayer. `make run` and `make test` do all set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Build and run-time libraries, and a font for on-screen text.
BUILD_PACKAGES := pkg-config libsdl2-dev libsdl2-ttf-dev libx11-dev libavformat-dev libavcodec-dev \
	libavutil-dev libswresample-dev libswscale-dev libavfilter-dev libass-dev libdbus-1-dev fonts-dejavu-core
# What the tests use: ffmpeg/ffprobe (reference decodes, x11grab screenshots),
# a virtual X server, xdotool to drive the window, and openbox: a window
# manager for the Picture in Picture stacking test; dbus-daemon (a private
# session bus per test), dbus-bin (dbus-send, dbus-monitor) and playerctl:
# the MPRIS clients the tests drive DeskPlayer with; Mesa's OpenGL (llvmpipe) for
# the GPU path forced under Xvfb.
TEST_PACKAGES := ffmpeg xvfb xauth xdotool x11-utils openbox socat dbus-daemon dbus-bin playerctl \
	libgl1-mesa-dri libglx-mesa0
# Clients written by others that the tests drive DeskPlayer with (PyPI).
TEST_PYPI := python-mpv-jsonipc==1.5.0
# What the benchmarks compare against.
BENCH_PACKAGES := ffmpeg mpv xvfb xauth xdotool time bc python3-numpy linux-perf

XVFB := xvfb-run -a -s "-screen 0 1920x1080x24"
# Seconds each tile bench run plays: the demo (the issue asks for 60), and
# the detailed clips the bench makes.
TILE_SECONDS ?= 60
TILE_FINE_SECONDS ?= 20
# Seconds each compare view plays (bench/compare.sh; VIDEO_COMPARE=path
# puts video-compare beside it, built from its own source).
COMPARE_SECONDS ?= 15

.PHONY: run test build deps test-deps bench-deps bench clean assets install sanitize sanitize-thread \
	sanitize-address fuzz soak

# Installs the Debian packages given in PKGS that are missing.
define apt_install
	@missing=""; for p in $(1); do dpkg -s $$p >/dev/null 2>&1 || missing="$$missing $$p"; done; \
	if [ -n "$$missing" ]; then \
		echo "Installing:$$missing"; \
		$(SUDO) apt-get update -qq && DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq $$missing >/dev/null; \
	fi
endef

deps:
	$(call apt_install,$(BUILD_PACKAGES))

test-deps: deps
	$(call apt_install,$(TEST_PACKAGES))
	@python3 -c "import python_mpv_jsonipc" 2>/dev/null || python3 -m pip install --quiet $(TEST_PYPI)

bench-deps: deps
	$(call apt_install,$(BENCH_PACKAGES))

build: deps
	$(SWIFT) build -c release

# Plays the bundled demo (in a virtual X server when there is no display).
run: build
	@if [ -n "$$DISPLAY" ]; then .build/release/deskplayer assets/demo.mp4; \
	else echo "No DISPLAY: playing under xvfb-run"; $(MAKE) --no-print-directory test-deps >/dev/null; \
		SDL_AUDIODRIVER=$${SDL_AUDIODRIVER:-dummy} $(XVFB) .build/release/deskplayer assets/demo.mp4; fi

# The whole suite, headless: a virtual X server for the window tests, SDL's
# disk/dummy audio drivers (the tests pick one per case).
test: test-deps
	$(SWIFT) build --build-tests
	SDL_AUDIODRIVER=dummy $(XVFB) $(SWIFT) test --skip-build

# Figures, not pass/fail: DeskPlayer beside ffplay and mpv in the same run.
# Each bench also writes its figures to bench/out/NAME.json; bench/collect.py
# merges them, with the commit and date, into bench/results.json (committed,
# so runs compare between commits). The figures of the last `make soak`, if
# any, go in too, with the time they were measured.
BENCH_JSON := playback ttff tiles compare seams video_seams stream_seams video_cases composition streams speed stretchers
bench: bench-deps
	$(SWIFT) build -c release
	rm -f $(BENCH_JSON:%=bench/out/%.json)
	$(XVFB) bench/playback.sh
	$(XVFB) bench/ttff.sh
	$(XVFB) bench/tiles.sh $(TILE_SECONDS) $(TILE_FINE_SECONDS)
	$(XVFB) bench/compare.sh $(COMPARE_SECONDS)
	python3 bench/seams.py --json bench/out/seams.json
	$(XVFB) python3 bench/video_seams.py --json bench/out/video_seams.json
	$(XVFB) python3 bench/stream_seams.py --json bench/out/stream_seams.json
	$(XVFB) python3 bench/video_cases.py --json bench/out/video_cases.json
	bench/composition.sh
	bench/streams.sh
	$(XVFB) bench/speed.sh
	python3 bench/stretchers.py --json bench/out/stretchers.json
	python3 bench/collect.py

# The test suite under ThreadSanitizer, then under AddressSanitizer, each in
# its own build folder. The app binary the tests start is the sanitized one
# (DESKPLAYER_BIN), so its reports count too: they go to files (log_path),
# and any file there fails the target. LeakSanitizer runs with the
# AddressSanitizer suite (detect_leaks=1): a leak in the test runner or in
# any app process it starts is a report like any other. Tests/lsan.supp
# names what libraries DeskPlayer does not own keep until exit (D-Bus under
# SDL, Foundation's Process, XCTest), each entry with its reason; nothing of
# DeskPlayer's own code is suppressed.
#
# TSan builds with -DDESKPLAYER_TSAN: Synchronization's Mutex locks with futex
# system calls TSan cannot see, so it gets a pthread Mutex there
# (Media/SanitizerMutex.swift); without it every Mutex-guarded access is
# reported. No suppressions are needed (none of the reports is in SDL,
# FFmpeg or X11).
#
# The suite runs whole except SANITIZE_TIMED: tests that assert real-time
# figures (frames presented in N s, A/V offsets, sync error < 17 ms,
# RSS after closing tiles, a window manager starting in time, every sample
# through the real-time disk audio device with no underrun, frames played
# around a stream fault, a screenshot a fixed time after a key, a 720p
# picture settled on screen within 15 s), which a
# debug build slowed 2-10x by the sanitizer cannot be sure to meet on 2
# shared cores. They then run on their own for the sanitizer's sake only:
# their reports count, their timing assertions do not.
SANITIZE_TIMED := audioAndVideoStayInSyncOverTenSeconds|aFailingTileDoesNotDisturbTheOthers|syncedTilesFollowOneClock|aVideoQueueShowsEveryFrameOfEachItem|aGoodTilePlaysBesideTheBrokenOnes|closingTilesGivesTheirMemoryBack|pictureInPictureStartsAndRestoresWithoutAGap|pipStaysOnTopOfAFullscreenMainWindowAndRestores|playingGivesExactlyTheExportedSamples|faultsAreRetriedOrSkippedAndReported|clickFocusesATileAndKeysActOnIt|contentModesShowTheRightFrameInTheRightPlace|theGPUPathShowsWhatTheSoftwarePathShows|wipeShowsEachSideOfTheDivider
# sanitizer name, scratch folder, options variable, extra build flags
define sanitized_suite
	$(SWIFT) build --build-tests --sanitize=$(1) --scratch-path $(2) $(4)
	rm -rf $(2)/reports && mkdir -p $(2)/reports
	@echo "== $(1): the suite without the timed tests"
	time DESKPLAYER_BIN=$(CURDIR)/$(2)/debug/deskplayer $(3)="log_path=$(CURDIR)/$(2)/reports/report $($(3)_EXTRA)" \
		SDL_AUDIODRIVER=dummy $(XVFB) $(SWIFT) test --skip-build --sanitize=$(1) --scratch-path $(2) --skip '$(SANITIZE_TIMED)'
	@echo "== $(1): the timed tests, for their sanitizer reports only"
	DESKPLAYER_BIN=$(CURDIR)/$(2)/debug/deskplayer $(3)="log_path=$(CURDIR)/$(2)/reports/report $($(3)_EXTRA)" \
		SDL_AUDIODRIVER=dummy $(XVFB) $(SWIFT) test --skip-build --sanitize=$(1) --scratch-path $(2) --filter '$(SANITIZE_TIMED)' \
		> $(2)/timed-tests.log 2>&1 || echo "$(1): timed tests missed figures (expected here; $(2)/timed-tests.log)"
	@if ls $(2)/reports/report* >/dev/null 2>&1; then \
		echo "$(1): $$(ls $(2)/reports/report* | wc -l) report(s):"; head -n 40 $(2)/reports/report*; exit 1; \
	else echo "$(1): clean (no reports)"; fi
endef
TSAN_OPTIONS_EXTRA := halt_on_error=0 exitcode=0 second_deadlock_stack=1
# fast_unwind_on_malloc=0: the frame-pointer unwinder stops in Mesa's DRI
# driver (built without frame pointers), so the leak --vo auto's GL probe
# leaves there is recorded with no frame a suppression can name (the driver
# is unloaded by then); the DWARF unwinder reaches libGLX_mesa (Tests/lsan.supp).
ASAN_OPTIONS_EXTRA := detect_leaks=1 halt_on_error=0 exitcode=0 fast_unwind_on_malloc=0
LSAN_SUPPRESSIONS := $(CURDIR)/Tests/lsan.supp

sanitize: sanitize-thread sanitize-address

sanitize-thread: test-deps
	$(call sanitized_suite,thread,.build-tsan,TSAN_OPTIONS,-Xswiftc -DDESKPLAYER_TSAN)

# LSan reads its suppressions from LSAN_OPTIONS, also under ASan.
sanitize-address: export LSAN_OPTIONS = suppressions=$(LSAN_SUPPRESSIONS):print_suppressions=0
sanitize-address: test-deps
	$(call sanitized_suite,address,.build-asan,ASAN_OPTIONS,)

# libFuzzer over the open-probe-decode path (App/FuzzEntry.swift): each input
# is opened as a PlayerItem and played through its pipeline without SDL
# (scaler, resampler, a loop seam and a seek), built with -DDESKPLAYER_FUZZ
# under ASan. Seeds are made from the assets at run time (bench/fuzz-seeds.sh);
# the corpus it grows stays in .build-fuzz/corpus for the next run; crashing
# inputs go to FUZZ_CRASHES (the run stops at the first: fix it, then keep the
# input in Tests/DeskPlayerTests/corpus/). FUZZ_SECONDS bounds the run.
# LeakSanitizer checks after each input that allocated more than it freed
# (FuzzEntry frees the item before it returns), with the suite's suppressions.
# The "rss:" libFuzzer prints is the peak (getrusage), which only grows: the
# resident size itself stays flat (about 460 MB, most of it ASan's shadow,
# quarantine and libFuzzer's tables; see README).
# swiftc keeps only the last -sanitize= it is given, and SwiftPM passes one per
# --sanitize: the -Xswiftc after them asks for both, or the Swift code would
# get ASan without the coverage libFuzzer steers by. EntryPoint.swift says how
# libFuzzer's main replaces ours.
FUZZ_SECONDS ?= 120
FUZZ_CRASHES ?= bench/out/fuzz-crashes
fuzz: deps
	$(SWIFT) build -c release --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DDESKPLAYER_FUZZ
	rm -rf .build-fuzz/seeds && bench/fuzz-seeds.sh .build-fuzz/seeds
	mkdir -p .build-fuzz/corpus $(FUZZ_CRASHES)
	ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(LSAN_SUPPRESSIONS):print_suppressions=0 \
		.build-fuzz/release/deskplayer .build-fuzz/corpus .build-fuzz/seeds \
		-max_total_time=$(FUZZ_SECONDS) -timeout=30 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
		-artifact_prefix=$(FUZZ_CRASHES)/

# A short clip looping in 4 tiles for SOAK_LOOPS passes (1000: 25 minutes)
# with seeks, pauses and PiP switches through the control socket; fails when
# RSS grows past 5 % or fds/threads do not come back (bench/soak.sh).
SOAK_LOOPS ?= 240
soak: bench-deps
	$(SWIFT) build -c release
	$(XVFB) bench/soak.sh $(SOAK_LOOPS)

assets:
	sh assets/make-assets.sh

# The binary, the desktop entry and the icon under PREFIX (DESTDIR for packaging).
PREFIX ?= /usr/local
install: build
	install -Dm755 .build/release/deskplayer $(DESTDIR)$(PREFIX)/bin/deskplayer
	install -Dm644 assets/deskplayer.desktop $(DESTDIR)$(PREFIX)/share/applications/deskplayer.desktop
	install -Dm644 assets/deskplayer.svg $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/deskplayer.svg

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz
