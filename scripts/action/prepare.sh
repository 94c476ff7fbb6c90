#!/bin/bash
# prepare.sh - the action's keys and paths (action.yml), as step outputs:
#   build-key   abtool's build, keyed by the action's own sources (its ref's
#               content) and the runner image (ImageOS/ImageVersion on
#               GitHub's runners, else the OS release)
#   build-dir   where abtool is built ($RUNNER_TEMP/abtool-build)
#   reports     the folder of the report files
#   artifact    the artifact name (one per shard: abtool-shard-1-of-4)
#   store-key   the sqlite store's cache key (without a team store)
# Inputs come as INPUT_* variables.
set -euo pipefail
: "${GITHUB_ACTION_PATH:?}" "${GITHUB_OUTPUT:?}" "${RUNNER_TEMP:?}"
src=$(cd "$GITHUB_ACTION_PATH" && find CMakeLists.txt cmake abtool store templates -type f | LC_ALL=C sort |
	xargs sha256sum | sha256sum | cut -c1-16)
image="${ImageOS:-}-${ImageVersion:-}"
if [ "$image" = - ]; then
	# shellcheck disable=SC1091
	image=$(. /etc/os-release && echo "$ID-$VERSION_ID")
fi
shard=${INPUT_SHARD:-}
if [ -n "$shard" ]; then
	if ! [[ $shard =~ ^[0-9]+/[0-9]+$ ]]; then
		echo "::error title=abtool::shard: expected K/N (shard K of N), got '$shard'"
		exit 64
	fi
	artifact="abtool-shard-${shard%/*}-of-${shard#*/}"
elif [ -n "${INPUT_GROUP:-}" ]; then
	artifact=abtool-verdict
else
	artifact=abtool-reports
fi
{
	echo "build-key=abtool-build-$(uname -m)-$image-$src"
	echo "build-dir=$RUNNER_TEMP/abtool-build"
	echo "reports=$RUNNER_TEMP/abtool-reports"
	echo "artifact=${INPUT_ARTIFACT_NAME:-$artifact}"
	echo "store-key=abtool-store-$image-${GITHUB_REF:-local}-${artifact}-${GITHUB_RUN_ID:-0}"
	echo "store-prefix=abtool-store-$image-${GITHUB_REF:-local}-${artifact}-"
} >> "$GITHUB_OUTPUT"
