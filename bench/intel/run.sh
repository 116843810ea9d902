#!/bin/bash
# Intel AVX-512 sitting: main before the AVX-512 kernels (today.test, ea61c01) and main now (new.test), alternately, one core; then bench/peers.py.
lscpu | grep -E "Model name|^CPU\(s\)|Thread|MHz" > $OUT/cpu.txt
grep -o -E 'avx512[a-z_0-9]*' /proc/cpuinfo | sort -u | tr '\n' ' ' >> $OUT/cpu.txt
B='LinearForward/B5000D90n400/float32|^BenchmarkStep$/D13H50/batch(5|5000)/float32|^BenchmarkPredict$/D13H50/float32|^BenchmarkPredictBatch$/D13H50/float32'
for r in 1 2 3 4 5; do
  taskset -c 3 bench/intel/today.test -test.run '^$' -test.bench "$B" -test.benchtime 0.2s -test.benchmem >> $OUT/today.txt 2>&1
  taskset -c 3 bench/intel/new.test -test.run '^$' -test.bench "$B" -test.benchtime 0.2s -test.benchmem >> $OUT/new.txt 2>&1
done
timeout 240 python3 bench/peers.py --quick --go-file $OUT/new.txt --cpu 3 > $OUT/peers.txt 2>&1
echo done
