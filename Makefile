# SPDX-License-Identifier: GPL-3.0-or-later
# DeskPlayer. `make run` and `make test` do all set-up on a fresh Debian machine.
SHELL := /bin/bash
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

# Build and run-time libraries, and a font for on-screen text; fontconfig
# finds the fonts text in other scripts falls back to; gettext's msgfmt
# compiles the translations (po/).
BUILD_PACKAGES := pkg-config libsdl2-dev libsdl2-ttf-dev libx11-dev libavformat-dev libavcodec-dev \
	libavutil-dev libswresample-dev libswscale-dev libavfilter-dev libavdevice-dev libass-dev libdbus-1-dev libfontconfig-dev \
	fonts-dejavu-core gettext
# What the tests use: ffmpeg/ffprobe (reference decodes, x11grab screenshots),
# a virtual X server, xdotool to drive the window, and openbox: a window
# manager for the Picture in Picture stacking test; dbus-daemon (a private
# session bus per test), dbus-bin (dbus-send, dbus-monitor) and playerctl:
# the MPRIS clients the tests drive DeskPlayer with; Mesa's OpenGL (llvmpipe) for
# the GPU path forced under Xvfb; mpv, which the mpv client tests run their
# clients against too, to tell a client's quirk from a gap of DeskPlayer's;
# PulseAudio and its clients (pactl, parec): a real audio server to kill and
# restart under the player; desktop-file-validate and appstreamcli for
# the desktop entry and the AppStream metainfo, zsh and fish to load the
# completion scripts (PackagingTests); Pillow (Debian's, for /usr/bin/python3)
# and GLib's g_filename_to_uri (through ctypes): the standard readers the
# thumbnail cache's entries are checked with (DesktopThumbnailTests);
# fonts-droid-fallback: the CJK font the text tests fall back to (DejaVu has
# the Hebrew and Arabic); tesseract with its German and Japanese data: the
# OCR that reads the translated window back (ScreenTests+Translations.swift);
# fonts-lohit-deva and fonts-noto-color-emoji: Devanagari and emoji for the
# names in every script, measured against HarfBuzz's hb-shape
# (libharfbuzz-bin) in ScreenTests+Scripts.swift; fuse3 and python3-fusepy:
# the busy camera, a FUSE folder whose video0 says EBUSY (CameraTests).
TEST_PACKAGES := ffmpeg xvfb xauth xdotool x11-utils openbox socat dbus-daemon dbus-bin playerctl \
	libgl1-mesa-dri libglx-mesa0 mpv pulseaudio pulseaudio-utils desktop-file-utils appstream zsh fish \
	python3-pil libglib2.0-0 fonts-droid-fallback tesseract-ocr tesseract-ocr-deu tesseract-ocr-jpn \
	fonts-lohit-deva fonts-noto-color-emoji libharfbuzz-bin fuse3 python3-fusepy
# Clients written by others that the tests drive DeskPlayer with (PyPI).
TEST_PYPI := python-mpv-jsonipc==1.5.0 aio-mpv-jsonipc==1.0
# What `make install` rasterises the icon with (FFmpeg's librsvg decoder).
INSTALL_PACKAGES := ffmpeg
# What `make deb` builds and checks the package with (dpkg-deb,
# dpkg-shlibdeps, dpkg-gencontrol; lintian) and validates the desktop entry
# and the AppStream metainfo with. dpkg-deb owns the files by root itself
# (--root-owner-group): no fakeroot; no debhelper, since no debian/rules.
# debugedit gives the stripped binary a build ID of its own contents.
DEB_PACKAGES := $(INSTALL_PACKAGES) dpkg-dev lintian desktop-file-utils appstream debugedit
# What the benchmarks compare against; the audio servers the outage bench
# kills and restarts under the players (PipeWire with its PulseAudio server
# and WirePlumber, on a private session bus); openbox for the minimized and
# covered window.
BENCH_PACKAGES := ffmpeg mpv xvfb xauth xdotool socat time bc python3-numpy linux-perf openbox \
	pulseaudio pulseaudio-utils pipewire-bin pipewire-pulse wireplumber dbus-daemon x11-utils \
	gcc libx11-dev libpulse-dev

XVFB := xvfb-run -a -s "-screen 0 1920x1080x24"
# Seconds each tile bench run plays: the demo (the issue asks for 60), and
# the detailed clips the bench makes.
TILE_SECONDS ?= 60
TILE_FINE_SECONDS ?= 20
# Seconds each compare view plays (bench/compare.sh; VIDEO_COMPARE=path
# puts video-compare beside it, built from its own source).
COMPARE_SECONDS ?= 15

.PHONY: run test test-quick build locale deps test-deps bench-deps deb-deps bench clean assets install dist-files deb deb-check deb-repro screenshots sanitize \
	sanitize-thread sanitize-address fuzz fuzz-socket soak

# Every release build links the Swift runtime statically, so the binary runs
# without the toolchain (installed, packaged, benchmarked: the same binary).
# All of them use these flags: SwiftPM rebuilds everything when they change.
# The prefix maps write the source folder as "." wherever the compilers would
# write its path (debug information, #filePath in Swift 5 mode dependencies,
# __FILE__ in libyaml): the binary names no build folder. (It still depends
# on it in one place, swiftc's .swift_modhash section, which build-deb.sh
# zeroes in the packaged binary.)
REPRO_FLAGS := -Xswiftc -file-prefix-map -Xswiftc $(CURDIR)=. -Xcc -ffile-prefix-map=$(CURDIR)=.
# Linked by the toolchain's lld with packed relative relocations (glibc 2.36's
# DT_RELR): the static runtime's 2 MB of relocation entries, read by the loader
# at every start and resident from then on, shrink to 36 KB (issue 40: peak
# memory playing 1080p, 136.5 MB with gold's, 134.9 MB).
LINK_FLAGS := -Xswiftc -use-ld=lld -Xlinker -z -Xlinker pack-relative-relocs
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib $(REPRO_FLAGS) $(LINK_FLAGS)

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
	@python3 -c "import python_mpv_jsonipc, aio_mpv_jsonipc" 2>/dev/null || python3 -m pip install --quiet $(TEST_PYPI)

bench-deps: deps
	$(call apt_install,$(BENCH_PACKAGES))

deb-deps: deps
	$(call apt_install,$(DEB_PACKAGES))

build: deps locale
	$(RELEASE_BUILD)

# The translations, po/LL.po (po/update-pot.sh makes the template and
# merges it into them), compiled into .build/locale/LL/LC_MESSAGES: the
# folder a binary built under .build finds them in (Media/Localization.swift),
# for `make run` and the tests; `make install` copies them under
# share/locale. --check: a broken format or plural header fails the build.
LANGUAGES := $(basename $(notdir $(wildcard po/*.po)))
LOCALE_DIR := .build/locale
MO_FILES := $(LANGUAGES:%=$(LOCALE_DIR)/%/LC_MESSAGES/deskplayer.mo)
locale: $(MO_FILES)
$(LOCALE_DIR)/%/LC_MESSAGES/deskplayer.mo: po/%.po | deps
	@mkdir -p $(@D)
	msgfmt --check -o $@ $<

# Plays the bundled demo (in a virtual X server when there is no display).
run: build
	@if [ -n "$$DISPLAY" ]; then .build/release/deskplayer assets/demo.mp4; \
	else echo "No DISPLAY: playing under xvfb-run"; $(MAKE) --no-print-directory test-deps >/dev/null; \
		SDL_AUDIODRIVER=$${SDL_AUDIODRIVER:-dummy} $(XVFB) .build/release/deskplayer assets/demo.mp4; fi

# The whole suite, headless: a virtual X server for the window tests, SDL's
# disk/dummy audio drivers (the tests pick one per case).
test: test-deps locale
	$(SWIFT) build --build-tests
	SDL_AUDIODRIVER=dummy $(XVFB) $(SWIFT) test --skip-build

# The edit-build-test loop: the suites that need no window, no X server and
# no audio server (the layers below App, and App's pure ones).
QUICK_SUITES := MediaTests PlaybackTests AnalysisTests ControlTests UITests \
	AppTests.KeyBindingTests AppTests.CommandTests AppTests.ContextMenuTests AppTests.DoorFuzzTests AppTests.ModeDoorFuzzTests \
	AppTests.ControlSocketTests AppTests.ControlSocketBoundsTests
test-quick: deps locale
	$(SWIFT) build --build-tests
	SDL_AUDIODRIVER=dummy SDL_VIDEODRIVER=dummy $(SWIFT) test --skip-build $(QUICK_SUITES:%=--filter %)

# Figures, not pass/fail: DeskPlayer beside ffplay and mpv in the same run.
# Each bench also writes its figures to bench/out/NAME.json; bench/collect.py
# merges them, with the commit and date, into bench/results.json (committed,
# so runs compare between commits). The figures of the last `make soak`, if
# any, go in too, with the time they were measured.
BENCH_JSON := playback ttff wakeups tiles compare seams video_seams stream_seams video_cases composition streams speed \
	stretchers scan live_metrics thumbnails lighter audio_outage compare_align compare_export scrub record library
bench: bench-deps
	$(RELEASE_BUILD)
	rm -f $(BENCH_JSON:%=bench/out/%.json)
	$(XVFB) bench/playback.sh
	$(XVFB) bench/ttff.sh
	$(XVFB) bench/wakeups.sh
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
	bench/scan.sh
	bench/compare_export.sh
	$(XVFB) bench/record.sh
	$(XVFB) python3 bench/record_sync.py --json bench/out/record_sync.json
	$(XVFB) bench/live_metrics.sh
	$(XVFB) python3 bench/thumbnails.py --json bench/out/thumbnails.json
	$(XVFB) python3 bench/lighter.py
	python3 bench/audio_outage.py --json bench/out/audio_outage.json
	$(XVFB) python3 bench/compare_align.py --json bench/out/compare_align.json
	$(XVFB) python3 bench/scrub.py --json bench/out/scrub.json
	$(XVFB) python3 bench/library.py --json bench/out/library.json
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
SANITIZE_TIMED := audioAndVideoStayInSyncOverTenSeconds|aFailingTileDoesNotDisturbTheOthers|syncedTilesFollowOneClock|aVideoQueueShowsEveryFrameOfEachItem|aGoodTilePlaysBesideTheBrokenOnes|closingTilesGivesTheirMemoryBack|pictureInPictureStartsAndRestoresWithoutAGap|pipStaysOnTopOfAFullscreenMainWindowAndRestores|playingGivesExactlyTheExportedSamples|faultsAreRetriedOrSkippedAndReported|clickFocusesATileAndKeysActOnIt|contentModesShowTheRightFrameInTheRightPlace|theGPUPathShowsWhatTheSoftwarePathShows|theWipeDividerDragsBothWays
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

# libFuzzer over every door a file reaches (App/FuzzTargets.swift), built with
# -DDESKPLAYER_FUZZ under ASan: media files opened as a PlayerItem and played
# through its pipeline without SDL (Playback/FuzzEntry.swift: the filters,
# scaler, resampler, a loop seam and a seek), then each text door in turn:
# subtitle files, HLS playlists, compositions, input.conf/deskplayer.conf and
# the JSON state files (DESKPLAYER_FUZZ_TARGET chooses). Seeds are made at run
# time (bench/fuzz-seeds.sh: tiny clips in the containers and codecs
# DeskPlayer meets, rotated, VFR, odd-timescale, interlaced, HDR10 and cover
# files, broken variants, and text seeds per door); the corpus each door grows
# stays in .build-fuzz/corpus/TARGET for the next run; crashing inputs go to
# FUZZ_CRASHES (the run stops at the first: fix it, then keep the input in
# Tests/AppTests/corpus/). FUZZ_SECONDS bounds the media run,
# FUZZ_TEXT_SECONDS each text door's.
# LeakSanitizer checks after each input that allocated more than it freed
# (FuzzEntry frees the item before it returns), with the suite's suppressions.
# The "rss:" libFuzzer prints is the peak (getrusage), which only grows: the
# resident size itself stays flat (about 460 MB, most of it ASan's shadow,
# quarantine and libFuzzer's tables; see docs/reliability.md).
# swiftc keeps only the last -sanitize= it is given, and SwiftPM passes one per
# --sanitize: the -Xswiftc after them asks for both, or the Swift code would
# get ASan without the coverage libFuzzer steers by. EntryPoint.swift says how
# libFuzzer's main replaces ours.
FUZZ_SECONDS ?= 120
FUZZ_TEXT_SECONDS ?= 60
FUZZ_TEXT_TARGETS := subtitle hls composition config state
FUZZ_CRASHES ?= bench/out/fuzz-crashes
FUZZ_RUN = ASAN_OPTIONS=detect_leaks=1 LSAN_OPTIONS=suppressions=$(LSAN_SUPPRESSIONS):print_suppressions=0 \
	DESKPLAYER_FUZZ_TARGET=$(1) .build-fuzz/release/deskplayer .build-fuzz/corpus/$(1) .build-fuzz/seeds/$(1) \
	-max_total_time=$(2) -timeout=30 -rss_limit_mb=4096 -max_len=65536 -print_final_stats=1 \
	-artifact_prefix=$(FUZZ_CRASHES)/$(1)-
fuzz: deps
	$(SWIFT) build -c release --scratch-path .build-fuzz --sanitize=fuzzer --sanitize=address \
		-Xswiftc -sanitize=fuzzer,address -Xswiftc -DDESKPLAYER_FUZZ
	rm -rf .build-fuzz/seeds && bench/fuzz-seeds.sh .build-fuzz/seeds
	mkdir -p $(FUZZ_CRASHES) $(addprefix .build-fuzz/corpus/,media $(FUZZ_TEXT_TARGETS))
	$(call FUZZ_RUN,media,$(FUZZ_SECONDS))
	for target in $(FUZZ_TEXT_TARGETS); do $(call FUZZ_RUN,$$target,$(FUZZ_TEXT_SECONDS)) || exit 1; done

# The control socket's door fuzzer (bench/socket_fuzz.py): every property and
# command with extreme values, then random mutations of them, for FUZZ_SECONDS
# (FUZZ_SEED repeats a run); it stops at the first request the player does not
# answer and prints it with the player's last words.
FUZZ_SEED ?= $(shell date +%s)
fuzz-socket: build
	python3 bench/socket_fuzz.py --binary .build/release/deskplayer --seconds $(FUZZ_SECONDS) --seed $(FUZZ_SEED)

# A short clip looping in 4 tiles for SOAK_LOOPS passes (1000: 25 minutes)
# with seeks, pauses and PiP switches through the control socket; fails when
# RSS grows past 5 % or fds/threads do not come back (bench/soak.sh).
# Then the door soak (bench/soak_doors.py): each mode in turn for
# SOAK_DOOR_SECONDS in all (1800: 30 minutes), 50 socket clients coming and
# going with random requests, MPRIS calls on a private bus, keys and clicks;
# fails on a crash, RSS past 10 % of the first minute's, or fds and threads
# that do not come back.
SOAK_LOOPS ?= 240
SOAK_DOOR_SECONDS ?= 420
soak: bench-deps
	$(call apt_install,dbus-bin)
	$(RELEASE_BUILD)
	$(XVFB) bench/soak.sh $(SOAK_LOOPS)
	$(XVFB) python3 bench/soak_doors.py --seconds $(SOAK_DOOR_SECONDS)

assets:
	sh assets/make-assets.sh

# docs/screenshots/*.jpg, the README's and the metainfo's, taken from the
# release binary in a virtual X server (packaging/screenshots.py).
screenshots: test-deps build
	$(XVFB) python3 packaging/screenshots.py .build/release/deskplayer docs/screenshots

# The files installed beside the binary that are made from it and the assets
# (packaging/dist-files.sh): the man page (swift-argument-parser's
# generate-manual tool, built from the package's copy of argument-parser), the
# bash, zsh and fish completions, the icon's hicolor PNG sizes.
DIST := .build/dist
ICON_SIZES := 16 22 24 32 48 64 128 256 512
dist-files: build
	$(call apt_install,$(INSTALL_PACKAGES))
	$(SWIFT) build --product generate-manual
	packaging/dist-files.sh .build/release/deskplayer $$($(SWIFT) build --show-bin-path)/generate-manual $(DIST)
	packaging/metainfo.sh packaging/debian/changelog assets/$(METAINFO) $(DIST)/$(METAINFO)

# The binary, the desktop entry, the AppStream metainfo (with <releases> from
# the changelog: packaging/metainfo.sh), the icons, the man page, the
# completions, the documentation (README.md, docs/*.md) and the
# translations (share/locale/LL/LC_MESSAGES/deskplayer.mo) under PREFIX;
# deskplayer-thumbnailer, a link to the binary (which acts on the name it is
# run by), with its thumbnailer entry and man page
# (DESTDIR for packaging). zsh looks in site-functions under /usr/local,
# Debian's packages use vendor-completions.
PREFIX ?= /usr/local
ZSH_COMPLETIONS ?= $(PREFIX)/share/zsh/site-functions
METAINFO := org.deskplayer.DeskPlayer.metainfo.xml
DOCDIR = $(PREFIX)/share/doc/deskplayer
install: build dist-files
	install -Dm755 .build/release/deskplayer $(DESTDIR)$(PREFIX)/bin/deskplayer
	ln -sfn deskplayer $(DESTDIR)$(PREFIX)/bin/deskplayer-thumbnailer
	install -Dm644 assets/deskplayer.thumbnailer $(DESTDIR)$(PREFIX)/share/thumbnailers/deskplayer.thumbnailer
	install -Dm644 packaging/deskplayer-thumbnailer.1 $(DESTDIR)$(PREFIX)/share/man/man1/deskplayer-thumbnailer.1
	install -Dm644 assets/deskplayer.desktop $(DESTDIR)$(PREFIX)/share/applications/deskplayer.desktop
	install -Dm644 $(DIST)/$(METAINFO) $(DESTDIR)$(PREFIX)/share/metainfo/$(METAINFO)
	install -Dm644 README.md $(DESTDIR)$(DOCDIR)/README.md
	install -Dm644 -t $(DESTDIR)$(DOCDIR)/docs docs/*.md
	install -Dm644 assets/deskplayer.svg $(DESTDIR)$(PREFIX)/share/icons/hicolor/scalable/apps/deskplayer.svg
	for size in $(ICON_SIZES); do install -Dm644 $(DIST)/icons/$$size.png \
		$(DESTDIR)$(PREFIX)/share/icons/hicolor/$${size}x$${size}/apps/deskplayer.png || exit 1; done
	install -Dm644 $(DIST)/deskplayer.1 $(DESTDIR)$(PREFIX)/share/man/man1/deskplayer.1
	install -Dm644 $(DIST)/deskplayer.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/deskplayer
	install -Dm644 $(DIST)/_deskplayer $(DESTDIR)$(ZSH_COMPLETIONS)/_deskplayer
	install -Dm644 $(DIST)/deskplayer.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/deskplayer.fish
	for lang in $(LANGUAGES); do install -Dm644 $(LOCALE_DIR)/$$lang/LC_MESSAGES/deskplayer.mo \
		$(DESTDIR)$(PREFIX)/share/locale/$$lang/LC_MESSAGES/deskplayer.mo || exit 1; done

# dist/deskplayer_VERSION_ARCH.deb (packaging/build-deb.sh): make install's
# files under /usr, Depends from dpkg-shlibdeps; then lintian, which fails the
# target on an error. The version is the first entry of packaging/debian/changelog.
# The package is reproducible: the same commit gives the same bytes
# (SOURCE_DATE_EPOCH is the commit's time; see build-deb.sh and deb-repro).
DEB_ROOT := .build/deb/root
deb: deb-deps build dist-files
	rm -rf $(DEB_ROOT)
	$(MAKE) --no-print-directory install DESTDIR=$(CURDIR)/$(DEB_ROOT) PREFIX=/usr \
		ZSH_COMPLETIONS=/usr/share/zsh/vendor-completions
	desktop-file-validate $(DEB_ROOT)/usr/share/applications/deskplayer.desktop
	appstreamcli validate --pedantic --no-net $(DEB_ROOT)/usr/share/metainfo/$(METAINFO)
	rm -f dist/deskplayer_*.deb
	packaging/build-deb.sh $(DEB_ROOT) dist
	lintian --fail-on error --info dist/deskplayer_*.deb

# Builds the package twice from the commit checked out and compares the two
# byte for byte (packaging/check-repro.sh): the second from a fresh clone in
# another folder, built from scratch (many minutes on 2 cores).
# REPRO_QUICK=1 packs the same binary again instead (the packaging alone).
deb-repro: deb-deps
	packaging/check-repro.sh $(if $(REPRO_QUICK),--quick)

# Installs the package on this machine, checks its files and that the binary
# runs with /opt/swift hidden, purges it and checks nothing is left
# (packaging/test-deb.sh; it refuses where deskplayer is installed already).
deb-check: deb
	$(SUDO) packaging/test-deb.sh dist/deskplayer_*.deb

clean:
	rm -rf .build .build-tsan .build-asan .build-fuzz dist
