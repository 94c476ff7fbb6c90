#!/bin/bash
# build.sh - build abtool from the action's own sources (action.yml) into
# BUILD_DIR, unless the cache restored a binary that runs; put it on the
# job's PATH.
set -euo pipefail
: "${GITHUB_ACTION_PATH:?}" "${GITHUB_PATH:?}" "${BUILD_DIR:?}"
if [ -x "$BUILD_DIR/abtool" ] && "$BUILD_DIR/abtool" --version > /dev/null 2>&1; then
	echo "abtool action: $("$BUILD_DIR/abtool" --version) from the cache"
else
	cmake -S "$GITHUB_ACTION_PATH" -B "$BUILD_DIR" -DCMAKE_BUILD_TYPE=Release -DBUILD_TESTING=OFF
	cmake --build "$BUILD_DIR" -j "$(nproc)" --target abtool
fi
echo "$BUILD_DIR" >> "$GITHUB_PATH"
