#!/bin/bash
# The five-set benchmark's 20 standard splits on a lent many-core machine:
# each data set's `gcp splits -json` (zero flags) in its own process at
# a share of the 16 cores by its size (Power 5, Boston 2, the others 3),
# all five at once, with each one's wall time; $GCP is a gcp
# binary built on the development machine. Each split's JSON line and the
# summary line that gcp splits ends with come back in $OUT/uci5.jsonl,
# the errors in $OUT/uci5.err: a run returns at most 8 files, so the
# data sets' outputs are gathered into one file each at the end, or when
# the run is stopped.
set -u
GCP=${GCP:-.dev/gcp}
lscpu | grep -E "Model name|^CPU\(s\)" > $OUT/cpu.txt
gather() { cat /tmp/uci5.*.jsonl > $OUT/uci5.jsonl; cat /tmp/uci5.*.err > $OUT/uci5.err; }
trap 'gather; exit 1' TERM INT
for dp in boston:2 concrete:3 kin8nm:3 power:5 yacht:3; do
  d=${dp%:*} p=${dp#*:}
  ( start=$(date +%s.%N)
    GOMAXPROCS=$p $GCP splits -data data/uci/$d.csv -json > /tmp/uci5.$d.jsonl 2> /tmp/uci5.$d.err
    rc=$?; echo "$d rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $start}") s" >> $OUT/times.txt ) &
done
wait
gather
cat $OUT/times.txt
