# bench/layers.sh - sourced by the benchmarks that compile a program of
# bench/src/ against abtool's layer libraries (CMakeLists.txt,
# ABTOOL_LAYERS; docs/architecture.md, "The layers"). Needs ROOT.
#   abtool_layer_flags -I        every layer's include folder, as -I flags
#   abtool_layer_flags -l BUILD  BUILD's layer libraries, highest first
#                                (the order a static link resolves them in)
abtool_layer_flags() {
	case $1 in
	-I)
		for l in util stats config measure verdict report run cli; do
			printf -- '-I%s ' "$ROOT/abtool/$l"
		done
		printf -- '-I%s\n' "$ROOT/store" ;;
	-l)
		for l in cli run report verdict store measure config stats util; do
			printf '%s ' "$2/libabtool_$l.a"
		done
		echo ;;
	esac
}
