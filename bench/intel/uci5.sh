#!/bin/bash
# The five-set benchmark's 20 standard splits on a lent many-core machine:
# each data set's `gcp splits -json` (zero flags) in its own process at
# a share of the 16 cores by its size (Power 5, Boston 2, the others 3),
# all five at once, with each one's wall time; $GCP is a gcp
# binary built on the development machine. Each split's JSON line and the
# summary line that gcp splits ends with come back under $OUT.
set -u
GCP=${GCP:-.dev/gcp}
lscpu | grep -E "Model name|^CPU\(s\)" > $OUT/cpu.txt
for dp in boston:2 concrete:3 kin8nm:3 power:5 yacht:3; do
  d=${dp%:*} p=${dp#*:}
  ( start=$(date +%s.%N)
    GOMAXPROCS=$p $GCP splits -data data/uci/$d.csv -json > $OUT/$d.jsonl 2> $OUT/$d.err
    rc=$?; echo "$d rc=$rc wall $(awk "BEGIN{print $(date +%s.%N) - $start}") s" >> $OUT/times.txt ) &
done
wait
cat $OUT/times.txt
