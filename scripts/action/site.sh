#!/bin/bash
# site.sh - the action's optional site (action.yml input site: 'true';
# docs/ci.md, "Publishing the site"): the store as static pages (abtool
# site, docs/history.md "The site") in SITE_DIR, which the next step
# uploads as the GitHub Pages artifact for actions/deploy-pages. The store
# is the one the gate used: the team store (INPUT_STORE) or the
# repository's. Step output: dir, the site's folder.
set -uo pipefail
: "${GITHUB_OUTPUT:?}" "${SITE_DIR:?}"
# the step's if: says so too; a runner that does not read it writes nothing
[ "${INPUT_SITE:-false}" = true ] || exit 0
[ -n "${INPUT_STORE:-}" ] && export ABTOOL_STORE="$INPUT_STORE"
if ! abtool site "$SITE_DIR"; then
	echo "::error title=abtool::abtool site could not write the site (see above)"
	exit 1
fi
echo "dir=$SITE_DIR" >> "$GITHUB_OUTPUT"
