# The project's front door: make run, make test, make bench, make fixtures.
SWIFT ?= swift
# Debian packages the build needs, and those the tests need besides: python3 runs the example subscriber, icecast2
# and ffmpeg (its source client) serve the radio end-to-end test and relay the daemon's mounts, curl and ffprobe
# (ffmpeg) listen to them, chromium plays one in a page, systemd and binutils check the units and binaries, openssl
# serves a self-signed certificate, opusinfo and ogginfo (opus-tools, vorbis-tools) check the Ogg mounts and files,
# mutagen (python3-mutagen) reads back the tags the writers write, flac tests the FLAC files they write and mpg123
# decodes their MP3s beside ffmpeg; ices2, darkice and liquidsoap are real source clients pushing to the daemon.
BUILD_PACKAGES := libmpg123-dev libebur128-dev libavcodec-dev libavutil-dev libswresample-dev liburing-dev pkg-config
TEST_PACKAGES := $(BUILD_PACKAGES) python3 goaccess gstreamer1.0-tools gstreamer1.0-plugins-good gstreamer1.0-libav nginx icecast2 ices2 darkice liquidsoap ffmpeg curl chromium systemd binutils openssl opus-tools vorbis-tools flac python3-mutagen mpg123
# Debian packages that make and check fixtures, benchmarks and the soak (never needed by make test).
TOOL_PACKAGES := sox lame twolame ffmpeg mpg123 flac vorbis-tools opus-tools gstreamer1.0-tools gstreamer1.0-plugins-good hyperfine icecast2 valgrind binutils liburing-dev

.PHONY: run test bench soak fixtures fuzz deps build-deps tool-deps build install

## make run: serve config.yaml (the bundled demo stream, looped at real time) until Ctrl-C.
run: build
	@echo "audiostreamd serves config.yaml until Ctrl-C. In another terminal:"
	@echo "  .build/release/audiostream subscribe run/demo.sock"
	@echo "  .build/release/audiostream status run/control.sock"
	.build/release/audiostreamd --config config.yaml

## make test: install what a fresh Debian machine lacks, build, and run every test.
test: deps
	$(SWIFT) build --build-tests
	SWIFT=$(SWIFT) bash scripts/test.sh

## make bench: MP3, ADTS, FLAC, Ogg Opus, WAVE and M4A parsing against ffmpeg and GStreamer, decoding against mpg123 (MP3) and
## ffmpeg (AAC, Opus), the daemon's fan-out and many streams, recording against ffmpeg -f segment, HLS, and loudness against
## ffmpeg's ebur128; writes docs/benchmarks.md (BENCH_ONLY=parse, adts, flac, ogg, wave, m4a, decode, codecs, daemon, record,
## scale, hls or loudness runs one: see Benchmarks/bench.sh).
bench: tool-deps
	$(SWIFT) build -c release
	bash Benchmarks/bench.sh

## make soak: audiostreamd for SOAK_MINUTES (default 30) with 11 live streams (one a push mount whose DJ comes and goes
## over a fallback), 500 unruly socket subscribers and 500 unruly HTTP listeners, well-behaved clients that check nothing is missed, and a reload every minute; fails if, after
## the warm-up, RSS (beyond the crowd's own growth) or the heap in use per client grows over 5 %, a descriptor leaks,
## a well-behaved client misses a packet or a stream stops.
## Writes "## Soak (make soak)" in docs/benchmarks.md and docs/soak.png (see Benchmarks/soak/soak.sh). Never part of make test.
SOAK_MINUTES ?= 30
soak: tool-deps
	$(SWIFT) build -c release --product audiostreamd
	SOAK_MINUTES=$(SOAK_MINUTES) bash Benchmarks/soak/soak.sh

## make fuzz: build the libFuzzer targets (Fuzz/: the parser, the daemon's ICY demuxer and block builder, the tag
## editor and the HLS segmenter) with AddressSanitizer, seed them from the fixtures and fuzz each for FUZZ_SECONDS
## (FUZZ_TARGET=audiofilestream, icy, tagedit or hls runs one); corpus and crash inputs stay in .build-fuzz/. Never
## part of make test.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) FUZZ_TARGET="$(FUZZ_TARGET)" bash Fuzz/fuzz.sh

## make fixtures: regenerate the test fixtures and their expected values from independent tools.
fixtures: tool-deps
	bash Tests/Fixtures/make-fixtures.sh

## make install: install the release binaries (built first only when missing: `make build` as yourself, then
## `sudo make install`), the systemd units and (if absent) /etc/audiostreamd/config.yaml;
## PREFIX=/usr/local, DESTDIR= (staging), UNITDIR=/etc/systemd/system, SYSCONFDIR=/etc. See docs/operations.md.
PREFIX ?= /usr/local
UNITDIR ?= /etc/systemd/system
SYSCONFDIR ?= /etc
install:
	@[ -x .build/release/audiostreamd ] && [ -x .build/release/audiostream ] && [ -x .build/release/audiostream-fetch ] \
		|| $(MAKE) build
	PREFIX="$(PREFIX)" DESTDIR="$(DESTDIR)" UNITDIR="$(UNITDIR)" SYSCONFDIR="$(SYSCONFDIR)" BUILD=.build/release \
		bash scripts/install.sh

build: build-deps
	$(SWIFT) build -c release --product audiostream
	$(SWIFT) build -c release --product audiostream-fetch
	$(SWIFT) build -c release --product audiostreamd

deps:
	@bash scripts/apt-install.sh $(TEST_PACKAGES)

build-deps:
	@bash scripts/apt-install.sh $(BUILD_PACKAGES)

tool-deps:
	@bash scripts/apt-install.sh $(TOOL_PACKAGES)
	@python3 -c 'import mutagen' 2>/dev/null || pip install --quiet mutagen
	@python3 -c 'import matplotlib' 2>/dev/null || pip install --quiet matplotlib
