# Percentages without %, negative, or not numbers: exit 64 at the key.
. "$(dirname "$0")/corpus.sh"

for v in 5 -2% abc% 5%% ''; do
	printf 'name: x\nbenchmark: ./bench\naccept:\n  - name: r\n    faster_by: %s\n' "$v" >"$T/exp.yaml"
	expect_fail 64 "exp.yaml:5:5: accept[0].faster_by: expected a percentage like 5%" "$ABTOOL" check "$T/exp.yaml"
done
echo ok
