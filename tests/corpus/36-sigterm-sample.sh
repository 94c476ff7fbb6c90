# SIGTERM during a sample: exit 143, the sample's process group killed,
# the run interrupted and resumable, its 4 committed samples unchanged
# before and after resume.
. "$(dirname "$0")/corpus.sh"

signal_sample TERM 143
echo ok
