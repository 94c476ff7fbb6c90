#!/bin/bash
# gate.sh - the action's gate (action.yml, docs/ci.md "GitHub Actions"):
#   mode merge-base    the candidate (input, else the pull request's head,
#                      else HEAD) against the parent (input, else its merge
#                      base with the pull request's target branch, else its
#                      exact parent)
#   mode exact-parent  every first-parent commit from that merge base to the
#                      candidate against its exact parent
#   shard K/N + group  one shard of the matrix (merge-base mode); its run is
#                      exported for the job that decides the group, and the
#                      step passes whatever the shard's own verdict
#   group alone        the group's verdict: imports the shards' exports found
#                      under INPUT_IMPORTS, then abtool verdict --group
# abtool appends its summary to $GITHUB_STEP_SUMMARY itself; this script
# adds what abtool could not say. Exits with abtool's exit code; the step
# outputs are verdict and exit-code.
set -uo pipefail
: "${GITHUB_OUTPUT:?}" "${REPORTS:?}"
mkdir -p "$REPORTS"
exp=${INPUT_EXPERIMENT:-}
shard=${INPUT_SHARD:-} group=${INPUT_GROUP:-} mode=${INPUT_MODE:-merge-base}
inconclusive=${INPUT_INCONCLUSIVE:-reject}
summary=${GITHUB_STEP_SUMMARY:-/dev/null}
[ -n "${INPUT_STORE:-}" ] && export ABTOOL_STORE="$INPUT_STORE"
die() {
	echo "::error title=abtool::$1"
	printf '**abtool**: %s\n\n' "$1" >> "$summary"
	echo "exit-code=64" >> "$GITHUB_OUTPUT"
	exit 64
}
outputs() {  # outputs RC JSON
	echo "exit-code=$1" >> "$GITHUB_OUTPUT"
	if [ -s "$2" ]; then
		echo "verdict=$(jq -r .verdict "$2")" >> "$GITHUB_OUTPUT"
	fi
}
case $mode in merge-base | exact-parent) ;; *) die "mode: expected merge-base or exact-parent, got '$mode'" ;; esac
case $inconclusive in
reject | accept) inconclusive_args=("--inconclusive=$inconclusive") ;;
keep) inconclusive_args=() ;;  # exit 2
*) die "inconclusive: expected reject, accept or keep, got '$inconclusive'" ;;
esac
reports=(--json "$REPORTS/abtool.json" --md "$REPORTS/abtool.md" --html "$REPORTS/abtool.html"
	--junit "$REPORTS/abtool-junit.xml")

if [ -z "$shard" ] && [ -n "$group" ]; then  # the group's verdict
	# without a team store: one store of the shards' exports (docs/ci.md, "Sharding")
	[ -n "${INPUT_STORE:-}" ] || export ABTOOL_STORE="${RUNNER_TEMP:-/tmp}/abtool-group.db"
	shopt -s nullglob
	for f in "${INPUT_IMPORTS:-abtool-shards}"/*/abtool-export-*.json "${INPUT_IMPORTS:-abtool-shards}"/abtool-export-*.json; do
		abtool import "$f" || die "could not import '$f'"
	done
	abtool verdict --group "$group" "${inconclusive_args[@]}" "${reports[@]}"
	rc=$?
	if [ "$rc" = 2 ] && [ ! -s "$REPORTS/abtool.json" ]; then
		# shellcheck disable=SC2016
		printf '**abtool**: group `%s` is incomplete: a shard is missing or unfinished; see the job log.\n\n' \
			"$group" >> "$summary"
	fi
	outputs "$rc" "$REPORTS/abtool.json"
	exit "$rc"
fi

[ -n "$exp" ] || die "the input experiment (the experiment file) is required"
event_sha=
if [ -n "${GITHUB_EVENT_PATH:-}" ] && [ -s "$GITHUB_EVENT_PATH" ]; then
	event_sha=$(jq -r '.pull_request.head.sha // empty' "$GITHUB_EVENT_PATH")
	pr=$(jq -r '.pull_request.number // empty' "$GITHUB_EVENT_PATH")
fi
candidate=${INPUT_CANDIDATE:-${event_sha:-HEAD}}
candidate=$(git rev-parse --verify "$candidate^{commit}") || die "candidate '$candidate' is not a commit here (check out with fetch-depth: 0)"
parent=${INPUT_PARENT:-}
if [ -z "$parent" ] && [ -n "${GITHUB_BASE_REF:-}" ]; then
	parent=$(git merge-base "origin/$GITHUB_BASE_REF" "$candidate") ||
		die "no merge base of $candidate with origin/$GITHUB_BASE_REF (check out with fetch-depth: 0)"
fi
design=${INPUT_DESIGN:-${pr:+pr-$pr}}
design_args=()
[ -n "$design" ] && design_args=(--design "$design")

if [ "$mode" = exact-parent ]; then
	[ -z "$shard" ] || die "shard: the exact-parent mode runs every commit; shard the merge-base mode"
	range="$candidate^!"  # without a merge base: the candidate alone
	[ -n "$parent" ] && range="$parent..$candidate"
	status=0
	for commit in $(git rev-list --reverse --first-parent "$range"); do
		abtool run "$exp" --candidate "$commit" "${design_args[@]}" "${inconclusive_args[@]}" \
			--json "$REPORTS/abtool-$commit.json" --junit "$REPORTS/abtool-junit-$commit.xml"
		rc=$?
		[ "$rc" -gt "$status" ] && status=$rc
		[ "$rc" -ge 64 ] && break
	done
	echo "exit-code=$status" >> "$GITHUB_OUTPUT"
	exit "$status"
fi

parent_args=()
[ -n "$parent" ] && parent_args=(--parent "$parent")
shard_args=()
if [ -n "$shard" ]; then
	[ -n "$group" ] || group="${GITHUB_RUN_ID:-local}-${GITHUB_RUN_ATTEMPT:-1}"
	shard_args=(--shard "$shard" --group "$group")
fi
abtool run "$exp" --candidate "$candidate" "${parent_args[@]}" "${shard_args[@]}" "${design_args[@]}" \
	"${inconclusive_args[@]}" "${reports[@]}"
rc=$?
if [ -n "$shard" ] && [ -s "$REPORTS/abtool.json" ]; then
	# the run, every sample included, for the job that decides the group
	abtool export "$(jq -r .run_id "$REPORTS/abtool.json")" -o "$REPORTS/abtool-export-${shard%/*}.json" ||
		die "could not export the shard's run"
fi
outputs "$rc" "$REPORTS/abtool.json"
# a shard decides nothing: the job that runs abtool verdict gates
[ -n "$shard" ] && [ "$rc" -le 3 ] && exit 0
exit "$rc"
