#!/bin/bash
# How the zero-flag recipe scales with cores (issue 36 item 4), on the
# lent 16-core Xeon: gcp train on Boston, and on 20,000 rows of the
# synthetic two-input table, at GOMAXPROCS 1, 2, 4, 8 and 16, each run
# alone; wall and CPU time, peak memory, and the model's SHA-256 (the
# recipe promises the same bytes whatever GOMAXPROCS). $GCP is a gcp
# binary built on the development machine (go build -o .dev/gcp ./cmd/gcp).
set -u
GCP=${GCP:-.dev/gcp}
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" > $OUT/cpu.txt
python3 - > /tmp/synth.csv <<'PY'
import math, random
r = random.Random(36)
print("x1,x2,y")
for _ in range(20000):
    a, b = r.uniform(-3, 3), r.uniform(-3, 3)
    print(f"{a:.6f},{b:.6f},{math.sin(a) + 0.5 * b + r.gauss(0, 0.2 + 0.2 * abs(a)):.6f}")
PY
for data in data/uci/boston.csv /tmp/synth.csv; do
  for p in 1 2 4 8 16; do
    name=$(basename $data .csv)
    /usr/bin/time -f "$name GOMAXPROCS=$p wall %e s user %U s sys %S s peak %M kB" env GOMAXPROCS=$p $GCP train -data $data -o /tmp/$name.$p.gcpm > /dev/null 2>> $OUT/scale.txt
    tail -1 $OUT/scale.txt
    sha256sum /tmp/$name.$p.gcpm >> $OUT/sha.txt
  done
done
cat $OUT/sha.txt
