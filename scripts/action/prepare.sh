#!/bin/bash
# prepare.sh - the action's keys and paths (action.yml), as step outputs:
#   build-key   abtool's build, keyed by the action's own sources (its ref's
#               content) and the runner image (ImageOS/ImageVersion on
#               GitHub's runners, else the OS release)
#   build-dir   where abtool is built ($RUNNER_TEMP/abtool-build)
#   reports     the folder of the report files
#   artifact    the artifact name, unique in the workflow run (GitHub
#               refuses a second artifact of one name): one per shard,
#               abtool-shard-1-of-4 (what the verdict job downloads by
#               pattern); else the job's id, abtool-reports-JOB or
#               abtool-verdict-JOB
#   store-key   the cache key of the store and the build cache (without a
#               team store): the base branch (a pull request's target, a
#               push's branch), the artifact and the workflow run
#   store-prefix  what restores it (restore-keys): the base branch alone,
#               so that every pull request of one base branch, and every
#               run on that branch, restores the newest store saved before
#               it that GitHub lets it read (docs/ci.md, "The store's cache")
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
	artifact=abtool-verdict${GITHUB_JOB:+-$GITHUB_JOB}
else
	artifact=abtool-reports${GITHUB_JOB:+-$GITHUB_JOB}
fi
# ':' is in no git branch name nor artifact name: the prefix of one base
# branch is never the prefix of another's ("main" and "main-2")
base=${GITHUB_BASE_REF:-${GITHUB_REF_NAME:-${GITHUB_REF:-local}}}
base=${base#refs/heads/}
{
	echo "build-key=abtool-build-$(uname -m)-$image-$src"
	echo "build-dir=$RUNNER_TEMP/abtool-build"
	echo "reports=$RUNNER_TEMP/abtool-reports"
	echo "artifact=${INPUT_ARTIFACT_NAME:-$artifact}"
	echo "store-key=abtool-store-$image:$base:${INPUT_ARTIFACT_NAME:-$artifact}:${GITHUB_RUN_ID:-0}-${GITHUB_RUN_ATTEMPT:-1}"
	echo "store-prefix=abtool-store-$image:$base:"
} >> "$GITHUB_OUTPUT"
