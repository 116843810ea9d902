#!/bin/sh
# Writes the expected outputs of gcp predict and eval on the tables here,
# from cmd/gcp: the outputs of the command at f025608, before predict and
# eval read their files as a stream, which must not change a byte of them;
# rewritten since by the command of the signals branch (issue 33), whose
# input_z measures text columns by their levels' rarity, +Inf for a level
# no row had (intervals -Inf and +Inf, counted outside), and whose predict
# writes the unseen column: nothing else changed.
# Usage (from cmd/gcp, with GCP the command built at that revision):
#   GCP=/tmp/gcp_old sh testdata/stream/generate.sh
set -u
d=testdata/stream
run() {
	name=$1
	shift
	"$GCP" "$@" >"$d/$name.out" 2>"$d/$name.err"
}
run predict_mixed predict -model $d/mixed.gcpm -data $d/test_mixed.csv -reorder
run predict_mixed_id predict -model $d/mixed.gcpm -data $d/test_mixed.csv -id row -levels 0.5,0.975
run predict_mixed_noid predict -model $d/mixed.gcpm -data $d/test_mixed_noid.csv
run predict_num32 predict -model $d/num32.gcpm -data $d/test_num.csv
run predict_num32_x predict -model $d/num32.gcpm -data $d/test_num_x.csv -levels 0.9
run eval_mixed eval -model $d/mixed.gcpm -data $d/test_mixed.csv -reorder
run eval_num32 eval -model $d/num32.gcpm -data $d/test_num.csv

# A model of two targets, a and b, and its outputs at 1ba913a, before
# predict and eval read such a model's data as a stream. train_multi.csv
# was written by an awk script (srand(7), 160 rows: city from Lyon, Paris,
# Nice and Rome, x1 in [0, 10) missing in 8% of rows, x2 in [-1, 1),
# a = x1 + x2 + a city offset + noise, b = sin(x1/2) + x2/2 + correlated
# noise); test_multi_semi.csv is test_multi.csv with semicolons and
# decimal commas. Rewritten since by the command that measures such a
# model's input_z as for one target (+Inf for a level no row had, whose
# _cal intervals are then -Inf and +Inf and which eval leaves out of its
# densities and regions, counted by unseen-rows), and then by the one
# whose predict writes input_z, outside, unseen, sd_epistemic:t and
# disagreement:t after the corr columns, and then by the one whose eval
# adds joint-NLL-cal and joint-cov50/90/95-conformal (NaN: this model has
# no conformal calibration): nothing else changed.
#   "$GCP" train -data $d/train_multi.csv -target a,b -o $d/multi.gcpm -members 2 -epochs 40 -hidden 16 -lr 0.003 -dropout 0
run predict_multi predict -model $d/multi.gcpm -data $d/test_multi.csv
run predict_multi_semi predict -model $d/multi.gcpm -data $d/test_multi_semi.csv -levels 0.5,0.975
run eval_multi eval -model $d/multi.gcpm -data $d/test_multi.csv
