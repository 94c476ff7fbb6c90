# The set-up commands of the README and CONTRIBUTING.md. Everything else
# is CMake; each target first installs the Debian packages it needs that
# are missing (scripts/install-deps).
#   make demo           build, run `abtool demo`
#   make check          scripts/check: build/ runs every test once,
#                       build-sanitize/ (ASan, UBSan) the unit tests, the
#                       corpus, the fuzz replays and the end-to-end smoke
#                       set, build-release/ compiles every target with
#                       -O3 (warnings are errors); then the ten slowest
#                       tests
#   make package-check  scripts/package-check: the README's Debian-package
#                       commands on a copy of the tree, then the package
#                       itself (its files, its dependencies, its binary)
#   make coverage       build-coverage/ (gcov), the unit tests and fuzz
#                       replays, line coverage per module (scripts/coverage)
#   make bench          build, run bench/run-all.sh
BUILD ?= build
SANITIZE_BUILD ?= $(BUILD)-sanitize
RELEASE_BUILD ?= $(BUILD)-release
COVERAGE_BUILD ?= $(BUILD)-coverage
JOBS ?= 2
export BUILD SANITIZE_BUILD RELEASE_BUILD JOBS
# cmake --build runs make again: no "Entering directory" line per target.
MAKEFLAGS += --no-print-directory

.PHONY: all demo check package-check coverage bench deps test-deps package-deps bench-deps clean

all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

package-deps:
	@scripts/install-deps --package

bench-deps:
	@scripts/install-deps --bench

demo: all
	$(BUILD)/abtool demo

check: test-deps
	scripts/check

package-check: package-deps
	scripts/package-check

coverage: test-deps
	cmake -S . -B $(COVERAGE_BUILD) -DCMAKE_BUILD_TYPE=Debug -DABTOOL_COVERAGE=ON
	cmake --build $(COVERAGE_BUILD) -j$(JOBS)
	scripts/coverage $(COVERAGE_BUILD)

bench: bench-deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)
	ABTOOL=$(BUILD)/abtool bench/run-all.sh

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(RELEASE_BUILD) $(COVERAGE_BUILD)
