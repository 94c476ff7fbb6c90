# The two set-up commands of the README. Everything else is CMake.
#   make demo   install missing packages, build, run `abtool demo`
#   make check  install missing packages, build, run every test; then the
#               same tests again in a second build with AddressSanitizer and
#               UndefinedBehaviorSanitizer (ABTOOL_SANITIZE=ON); and the
#               Release build docs/ci.md tells CI to make (-O3 warns of
#               other things than -O2, and warnings are errors)
#   make bench  install missing packages, build, run bench/run-all.sh
BUILD ?= build
SANITIZE_BUILD ?= $(BUILD)-sanitize
RELEASE_BUILD ?= $(BUILD)-release
JOBS ?= 2

.PHONY: all demo check bench deps test-deps bench-deps clean

all: deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)

deps:
	@scripts/install-deps

test-deps:
	@scripts/install-deps --test

bench-deps:
	@scripts/install-deps --bench

demo: all
	$(BUILD)/abtool demo

check: test-deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j$(JOBS) --repeat until-pass:2
	cmake -S . -B $(SANITIZE_BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo -DABTOOL_SANITIZE=ON
	cmake --build $(SANITIZE_BUILD) -j$(JOBS)
	cd $(SANITIZE_BUILD) && ctest --output-on-failure -j$(JOBS) --repeat until-pass:2
	cmake -S . -B $(RELEASE_BUILD) -DCMAKE_BUILD_TYPE=Release
	cmake --build $(RELEASE_BUILD) -j$(JOBS)

bench: bench-deps
	cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo
	cmake --build $(BUILD) -j$(JOBS)
	ABTOOL=$(BUILD)/abtool bench/run-all.sh

clean:
	rm -rf $(BUILD) $(SANITIZE_BUILD) $(RELEASE_BUILD)
