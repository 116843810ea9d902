// peak measures one core's single-precision FMA throughput with 512-bit
// (ZMM) and 256-bit (YMM) vectors: twelve independent register-only
// accumulator chains, no memory traffic, so the figure is the ceiling a
// float32 layer product could reach. On a CPU with one 512-bit FMA
// path (AMD Zen 4, which splits a ZMM FMA into two 256-bit halves) the
// two figures agree; on one with two 512-bit FMA units (Intel Xeon
// server cores) ZMM doubles YMM. Issue 25's layer-product target is read
// against it.
//
//	gcc -O2 -mavx512f -mfma -o /tmp/peak bench/fmapeak/peak.c && taskset -c 0 /tmp/peak
#include <immintrin.h>
#include <stdio.h>
#include <time.h>

static double now(void) {
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec + t.tv_nsec * 1e-9;
}

enum { chains = 12 };
static const long iters = 20000000L;

int main(void) {
	__m512 z[chains];
	__m256 y[chains];
	const __m512 za = _mm512_set1_ps(1.0000001f), zb = _mm512_set1_ps(0.9999999f);
	const __m256 ya = _mm256_set1_ps(1.0000001f), yb = _mm256_set1_ps(0.9999999f);
	for (int j = 0; j < chains; j++) {
		z[j] = _mm512_set1_ps(j);
		y[j] = _mm256_set1_ps(j);
	}
	for (int round = 0; round < 3; round++) {
		double t = now();
		for (long i = 0; i < iters; i++) {
#pragma GCC unroll 12
			for (int j = 0; j < chains; j++) z[j] = _mm512_fmadd_ps(z[j], za, zb);
		}
		double d = now() - t;
		float sink = 0;
		for (int j = 0; j < chains; j++) sink += _mm512_reduce_add_ps(z[j]);
		printf("zmm: %.1f GFLOP/s (%g)\n", iters * chains * 32.0 / d / 1e9, sink);
		t = now();
		for (long i = 0; i < iters; i++) {
#pragma GCC unroll 12
			for (int j = 0; j < chains; j++) y[j] = _mm256_fmadd_ps(y[j], ya, yb);
		}
		d = now() - t;
		float lane[8];
		sink = 0;
		for (int j = 0; j < chains; j++) {
			_mm256_storeu_ps(lane, y[j]);
			sink += lane[0];
		}
		printf("ymm: %.1f GFLOP/s (%g)\n", iters * chains * 16.0 / d / 1e9, sink);
	}
	return 0;
}
