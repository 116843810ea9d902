package bayes

import (
	"bytes"
	"encoding/binary"
	"errors"
	"flag"
	"hash/crc32"
	"io"
	"math"
	"os"
	"slices"
	"testing"

	"github.com/gcpnet/gcp"
)

// svgdUpdate rewrites the golden file. (Its own name, so that it cannot
// clash with another file's -update in this package.)
var svgdUpdate = flag.Bool("update-svgd", false, "rewrite testdata/svgd_v1.gcpsvgd from a fresh FitSVGD")

const svgdGoldenPath = "testdata/svgd_v1.gcpsvgd"

// svgdGoldenConfig is the golden model: two hidden layers, so that the
// file's network order covers a block-diagonal layer too.
var svgdGoldenConfig = SVGDConfig{Inputs: 2, Hidden: []int{5, 3}, Particles: 4, Iterations: 200, LearningRate: 0.01, Seed: 3}

// svgdParsed is a saved model read straight from its bytes by the
// offsets MarshalBinary documents, without UnmarshalBinary.
type svgdParsed struct {
	hidden               []int
	particles            int
	yMean, yScale        float64
	xMean, xScale, theta []float64
}

func svgdParse(t *testing.T, b []byte) svgdParsed {
	t.Helper()
	le := binary.LittleEndian
	if string(b[:8]) != "GCPSVGD\x00" || le.Uint16(b[8:]) != 1 {
		t.Fatalf("golden file starts %q", b[:10])
	}
	depth, m := int(b[10]), int(b[11])
	in, w := int(le.Uint32(b[12:])), int(le.Uint32(b[16:]))
	f := func(off int) float64 { return math.Float64frombits(le.Uint64(b[off:])) }
	floats := func(off, n int) []float64 {
		v := make([]float64, n)
		for i := range v {
			v[i] = f(off + 8*i)
		}
		return v
	}
	p := svgdParsed{particles: m}
	for i := range depth {
		p.hidden = append(p.hidden, int(le.Uint32(b[24+4*i:])))
	}
	s := 48 + 4*depth
	p.yMean, p.yScale = f(s), f(s+8)
	p.xMean, p.xScale = floats(s+16, in), floats(s+16+8*in, in)
	p.theta = floats(s+16+16*in, m*w)
	if len(b) != s+20+16*in+8*m*w {
		t.Fatalf("golden file has %d bytes, its header says %d", len(b), s+20+16*in+8*m*w)
	}
	return p
}

// TestSVGDGolden loads the committed version-1 file and checks its
// predictions against the particles read from the file's bytes by the
// documented offsets and run by hand (svgdCheckPrediction's tolerance),
// and that saving it again gives the same bytes. Run with -update-svgd
// to rewrite the file from a fresh fit.
func TestSVGDGolden(t *testing.T) {
	if *svgdUpdate {
		x, y := svgdPlane(4, 50)
		m, err := FitSVGD(svgdGoldenConfig, x, y)
		if err != nil {
			t.Fatal(err)
		}
		b, err := m.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(svgdGoldenPath, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	b, err := os.ReadFile(svgdGoldenPath)
	if err != nil {
		t.Fatal(err)
	}
	var m SVGD
	if err := m.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	if c := m.Config(); c.Particles != svgdGoldenConfig.Particles || len(c.Hidden) != 2 || c.Seed != svgdGoldenConfig.Seed {
		t.Errorf("loaded configuration %+v", c)
	}
	p := svgdParse(t, b)
	ws := m.NewWorkspace()
	for _, x := range [][]float64{{0, 0}, {1.5, -0.5}, {-3, 2}} {
		pr, err := m.Predict(ws, x)
		if err != nil {
			t.Fatal(err)
		}
		means, sds := svgdHand(p.hidden, p.theta, p.xMean, p.xScale, p.yMean, p.yScale, p.particles, x)
		svgdCheckPrediction(t, pr, means, sds)
	}
	again, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(again, b) {
		t.Error("saving the loaded golden model gives other bytes")
	}
}

// TestSVGDRoundTrip saves and loads a model: the copy predicts bit for
// bit as the original. ReadFrom reads the model, stored twice in a
// stream, twice, and then stops at the stream's end with
// gcp.ErrTruncated and io.EOF.
func TestSVGDRoundTrip(t *testing.T) {
	m := svgdSmall(t)
	b, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	var c SVGD
	if err := c.UnmarshalBinary(b); err != nil {
		t.Fatal(err)
	}
	stream := bytes.NewReader(append(slices.Clone(b), b...))
	for range 2 {
		var r SVGD
		if n, err := r.ReadFrom(stream); err != nil || n != int64(len(b)) {
			t.Fatalf("ReadFrom = %d, %v; want %d bytes", n, err, len(b))
		}
		if rb, err := r.MarshalBinary(); err != nil || !bytes.Equal(rb, b) {
			t.Errorf("ReadFrom restored other bytes (%v)", err)
		}
	}
	if _, err := c.ReadFrom(stream); !errors.Is(err, gcp.ErrTruncated) || !errors.Is(err, io.EOF) {
		t.Errorf("ReadFrom at the end of the stream: %v, want gcp.ErrTruncated and io.EOF", err)
	}
	ws, wc := m.NewWorkspace(), c.NewWorkspace()
	x, _ := svgdPlane(5, 20)
	for i := range 20 {
		a, err := m.Predict(ws, x[2*i:2*i+2])
		if err != nil {
			t.Fatal(err)
		}
		if b, err := c.Predict(wc, x[2*i:2*i+2]); err != nil || a != b {
			t.Fatalf("row %d: loaded model predicts %v (%v), original %v", i, b.Mean, err, a.Mean)
		}
	}
}

// TestSVGDCorruption cuts the golden file at every length and flips
// every single bit: each must give an error wrapping one of the loading
// sentinels (never a panic, never a model), and leave the target model
// unchanged.
func TestSVGDCorruption(t *testing.T) {
	b, err := os.ReadFile(svgdGoldenPath)
	if err != nil {
		t.Fatal(err)
	}
	m := svgdSmall(t)
	before, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	sentinel := func(err error) bool {
		for _, s := range []error{gcp.ErrMagic, gcp.ErrVersion, gcp.ErrTruncated, gcp.ErrChecksum, gcp.ErrFormat} {
			if errors.Is(err, s) {
				return true
			}
		}
		return false
	}
	for n := range len(b) {
		if err := m.UnmarshalBinary(b[:n]); !sentinel(err) {
			t.Fatalf("cut at %d bytes: %v", n, err)
		}
		if _, err := m.ReadFrom(bytes.NewReader(b[:n])); !sentinel(err) {
			t.Fatalf("ReadFrom cut at %d bytes: %v", n, err)
		}
	}
	bad := append([]byte(nil), b...)
	for i := range bad {
		for bit := range 8 {
			bad[i] ^= 1 << bit
			if err := m.UnmarshalBinary(bad); !sentinel(err) {
				t.Fatalf("bit %d of byte %d flipped: %v", bit, i, err)
			}
			bad[i] ^= 1 << bit
		}
	}
	after, err := m.MarshalBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(before, after) {
		t.Error("failed loads changed the model")
	}
}

// TestSVGDFormatErrors builds files that pass their checksums but break
// the format, and checks the sentinel each gets.
func TestSVGDFormatErrors(t *testing.T) {
	b, err := os.ReadFile(svgdGoldenPath)
	if err != nil {
		t.Fatal(err)
	}
	le := binary.LittleEndian
	// reseal recomputes both CRCs after an edit.
	reseal := func(b []byte) []byte {
		le.PutUint32(b[20:], crc32.Checksum(b[:20], svgdCastagnoli))
		le.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], svgdCastagnoli))
		return b
	}
	edit := func(f func([]byte) []byte) []byte { return f(append([]byte(nil), b...)) }
	depth := int(b[10])
	yScaleAt := 56 + 4*depth
	thetaAt := 64 + 4*depth + 16*int(le.Uint32(b[12:]))
	for _, c := range []struct {
		name string
		data []byte
		want error
	}{
		{"magic", edit(func(b []byte) []byte { b[0] = 'X'; return b }), gcp.ErrMagic},
		{"version 2", edit(func(b []byte) []byte { b[8] = 2; return reseal(b) }), gcp.ErrVersion},
		{"trailing byte", edit(func(b []byte) []byte { return append(b, 0) }), gcp.ErrFormat},
		{"0 particles", edit(func(b []byte) []byte { b[11] = 0; return reseal(b) }), gcp.ErrFormat},
		{"21 particles", edit(func(b []byte) []byte { b[11] = gcp.MaxMembers + 1; return reseal(b) }), gcp.ErrFormat},
		{"values per particle", edit(func(b []byte) []byte {
			le.PutUint32(b[16:], le.Uint32(b[16:])-1)
			return reseal(b[:len(b)-8*int(b[11])])
		}), gcp.ErrFormat},
		{"hidden width 0", edit(func(b []byte) []byte { le.PutUint32(b[24:], 0); return reseal(b) }), gcp.ErrConfig},
		{"NaN particle", edit(func(b []byte) []byte { le.PutUint64(b[thetaAt:], math.Float64bits(math.NaN())); return reseal(b) }), gcp.ErrNonFinite},
		{"target scale 0", edit(func(b []byte) []byte { le.PutUint64(b[yScaleAt:], 0); return reseal(b) }), gcp.ErrFormat},
	} {
		var m SVGD
		if err := m.UnmarshalBinary(c.data); !errors.Is(err, c.want) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}
