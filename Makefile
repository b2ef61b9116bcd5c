# The project's front door: make run, make test, make bench, make fixtures.
SWIFT ?= swift
# Debian packages the build and tests need on a fresh machine (python3 runs the example subscriber).
TEST_PACKAGES := libmpg123-dev pkg-config python3
# Debian packages that make and check fixtures and benchmarks (never needed by make test).
TOOL_PACKAGES := sox lame twolame ffmpeg mpg123 gstreamer1.0-tools gstreamer1.0-plugins-good hyperfine
RUN_INPUT ?= Tests/Fixtures/l3-vbr-v2.mp3

.PHONY: run test bench fixtures deps tool-deps build

## make run: parse a bundled MP3 and print its properties, then its first events.
run: build
	.build/release/audiostream probe $(RUN_INPUT)
	.build/release/audiostream events $(RUN_INPUT) | head -n 20

## make test: install what a fresh Debian machine lacks, build, and run every test.
test: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build

## make bench: time audiostream scan against ffmpeg and GStreamer; writes docs/benchmarks.md.
bench: tool-deps
	$(SWIFT) build -c release
	bash Benchmarks/bench.sh

## make fixtures: regenerate the test fixtures and their expected values from independent tools.
fixtures: tool-deps
	bash Tests/Fixtures/make-fixtures.sh

build:
	$(SWIFT) build -c release --product audiostream

deps:
	@bash scripts/apt-install.sh $(TEST_PACKAGES)

tool-deps:
	@bash scripts/apt-install.sh $(TOOL_PACKAGES)
	@python3 -c 'import mutagen' 2>/dev/null || pip install --quiet mutagen
