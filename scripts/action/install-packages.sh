#!/bin/bash
# install-packages.sh - the action's first step (action.yml): the Debian
# packages abtool builds and runs with, installed with apt-get only when
# one is missing (a self-hosted runner that has them needs no network).
set -euo pipefail
pkgs="cmake make gcc pkg-config git jq libgit2-dev libsqlite3-dev libjansson-dev libyaml-dev
libpcre2-dev libssl-dev libcsv-dev liburiparser-dev libpq-dev zlib1g-dev"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' || missing="$missing $p"
done
if [ -z "$missing" ]; then
	echo "abtool action: the Debian packages are installed"
	exit 0
fi
sudo=
[ "$(id -u)" = 0 ] || sudo=sudo
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
