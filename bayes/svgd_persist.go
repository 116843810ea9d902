package bayes

import (
	"fmt"
	"io"
	"math"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/binfmt"
)

// The saved-model format of an SVGD (MarshalBinary).
const (
	svgdFileVersion = 1
	svgdHeaderLen   = 24 // magic, version, sizes and the header's CRC
	svgdMaxDepth    = 64 // hidden layers, as gcp.Config allows
	svgdMaxInputs   = 1 << 16
	svgdMaxValues   = 1 << 28 // values per particle, as gcp's parameter limit
)

// svgdFormat is the SVGD format's magic, version and header length,
// which package binfmt checks and reads by.
var svgdFormat = binfmt.Format{
	Magic:      atomicfile.MagicSVGD,
	MaxVersion: svgdFileVersion,
	HeaderLen:  func(uint16) int { return svgdHeaderLen },
}

// MarshalBinary encodes the model, to be restored by UnmarshalBinary. The
// format is little-endian, floats as their IEEE 754 bits; with D hidden
// layers, I inputs, M particles and W = P + 2 values per particle, by
// byte offset:
//
//	offset        size  field
//	Header, checked before anything else is read or allocated:
//	0             8     magic "GCPSVGD\x00"
//	8             2     format version, uint16: 1
//	10            1     D, 1..64
//	11            1     M, 1..gcp.MaxMembers
//	12            4     I, uint32, 1..65536
//	16            4     W, uint32, at most 2^28
//	20            4     CRC-32C (Castagnoli) of bytes 0..19
//	Configuration:
//	24            4·D   Hidden, uint32 each
//	24+4D         8     LearningRate, float64
//	32+4D         4     Iterations, uint32
//	36+4D         4     BatchSize, uint32
//	40+4D         8     Seed, uint64
//	Standardization:
//	48+4D         8     the targets' centre (median, or mean under MeanSD
//	                    and before Standardization existed), float64
//	56+4D         8     their scale, float64
//	64+4D         8·I   the features' centres, float64
//	64+4D+8I      8·I   their scales, float64
//	Particles:
//	64+4D+16I     8·M·W particle k's network in the order of gcp.Stack.Net,
//	                    then its log γ (standardized targets) and log λ
//	64+4D+16I+8MW 4     CRC-32C of every byte before it
//
// The whole model is 68 + 4D + 16I + 8MW bytes. It returns an error
// wrapping gcp.ErrConfig for a nil model or one FitSVGD did not build.
func (m *SVGD) MarshalBinary() ([]byte, error) {
	if m == nil || m.stack == nil {
		return nil, fmt.Errorf("%w: no fitted SVGD", gcp.ErrConfig)
	}
	c := m.cfg
	b := make([]byte, 0, svgdSize(len(c.Hidden), c.Inputs, c.Particles, m.weights()+2))
	b = svgdFormat.AppendPrefix(b, svgdFileVersion)
	b = append(b, byte(len(c.Hidden)), byte(c.Particles))
	b = le.AppendUint32(b, uint32(c.Inputs))
	b = le.AppendUint32(b, uint32(m.weights()+2))
	b = binfmt.AppendCRC(b)
	for _, w := range c.Hidden {
		b = le.AppendUint32(b, uint32(w))
	}
	b = le.AppendUint64(b, math.Float64bits(c.LearningRate))
	b = le.AppendUint32(b, uint32(c.Iterations))
	b = le.AppendUint32(b, uint32(c.BatchSize))
	b = le.AppendUint64(b, c.Seed)
	for _, v := range [][]float64{{m.yMean, m.yScale}, m.xMean, m.xScale, m.theta} {
		for _, f := range v {
			b = le.AppendUint64(b, math.Float64bits(f))
		}
	}
	return binfmt.AppendCRC(b), nil
}

// svgdSize returns the size in bytes of a saved model of depth hidden
// layers, inputs inputs and particles particles of values values each.
func svgdSize(depth, inputs, particles, values int) uint64 {
	return 68 + 4*uint64(depth) + 16*uint64(inputs) + 8*uint64(particles)*uint64(values)
}

// svgdHeader is the size information at the start of a saved SVGD.
type svgdHeader struct{ depth, particles, inputs, values int }

// size returns the length of the whole saved model.
func (h svgdHeader) size() uint64 { return svgdSize(h.depth, h.inputs, h.particles, h.values) }

// parseSVGDHeader checks the header at the start of data, which may be
// the header alone: its magic, version and CRC (binfmt.Format.Header),
// then its sizes against the limits. It returns the sizes; its errors
// are UnmarshalBinary's.
func parseSVGDHeader(data []byte) (svgdHeader, error) {
	if _, err := svgdFormat.Header(data); err != nil {
		return svgdHeader{}, err
	}
	depth, particles := int(data[10]), int(data[11])
	inputs, values := le.Uint32(data[12:]), le.Uint32(data[16:])
	if depth < 1 || depth > svgdMaxDepth || particles < 1 || particles > gcp.MaxMembers ||
		inputs < 1 || inputs > svgdMaxInputs || values < 3 || values > svgdMaxValues {
		return svgdHeader{}, fmt.Errorf("%w: header: D = %d, M = %d, I = %d, W = %d beyond the limits", gcp.ErrFormat, depth, particles, inputs, values)
	}
	return svgdHeader{depth: depth, particles: particles, inputs: int(inputs), values: int(values)}, nil
}

// ReadFrom reads one model in the format of MarshalBinary from r into m
// and returns the number of bytes read, as PBP.ReadFrom does: the header
// first, validated, then exactly the rest of the model, its buffer
// growing with what r delivers rather than to the size the header
// claims. Its errors are PBP.ReadFrom's; on error m is left unchanged.
func (m *SVGD) ReadFrom(r io.Reader) (int64, error) {
	if m == nil {
		return 0, fmt.Errorf("%w: nil SVGD", gcp.ErrConfig)
	}
	return svgdFormat.ReadOne(r, func(head []byte) (int64, error) {
		h, err := parseSVGDHeader(head)
		return int64(h.size()), err
	}, m.UnmarshalBinary)
}

// UnmarshalBinary replaces m with the model MarshalBinary encoded in
// data. Its errors wrap gcp.ErrMagic (not a saved SVGD), gcp.ErrVersion
// (a format version other than 1), gcp.ErrTruncated (data ends early),
// gcp.ErrChecksum (a CRC mismatch), gcp.ErrFormat (sizes beyond the
// limits, a parameter count that does not match the stored shape,
// trailing bytes, a non-positive scale), gcp.ErrConfig (an invalid
// stored configuration, or a nil m) and gcp.ErrNonFinite (a stored NaN
// or ±Inf); on error m is unchanged.
func (m *SVGD) UnmarshalBinary(data []byte) error {
	if m == nil {
		return fmt.Errorf("%w: nil SVGD", gcp.ErrConfig)
	}
	h, err := parseSVGDHeader(data)
	if err != nil {
		return err
	}
	depth, particles, inputs, values := h.depth, h.particles, uint32(h.inputs), uint32(h.values)
	if err := binfmt.Complete(data, int64(h.size())); err != nil {
		return err
	}
	d := binfmt.NewDecoder(data, svgdHeaderLen)
	cfg := SVGDConfig{Inputs: int(inputs), Particles: particles, Hidden: make([]int, depth)}
	for i := range cfg.Hidden {
		cfg.Hidden[i] = int(d.U32())
	}
	cfg.LearningRate = d.F64()
	cfg.Iterations, cfg.BatchSize = int(d.U32()), int(d.U32())
	cfg.Seed = d.U64()
	stack, err := cfg.validate()
	if err != nil {
		return err
	}
	if stack.Params()/particles+2 != int(values) {
		return fmt.Errorf("%w: offset 16: %d values per particle, but Inputs = %d and Hidden = %v make %d",
			gcp.ErrFormat, values, inputs, cfg.Hidden, stack.Params()/particles+2)
	}
	n := &SVGD{cfg: cfg, stack: stack, xMean: make([]float64, inputs), xScale: make([]float64, inputs),
		theta: make([]float64, particles*int(values))}
	n.yMean, n.yScale = d.F64(), d.F64()
	for _, v := range [][]float64{n.xMean, n.xScale, n.theta} {
		for i := range v {
			start := d.Off()
			if v[i] = d.F64(); !finite(v[i]) {
				return fmt.Errorf("%w: offset %d: %g", gcp.ErrNonFinite, start, v[i])
			}
		}
	}
	if !finite(n.yMean) || !finite(n.yScale) {
		return fmt.Errorf("%w: the targets' standardization (%g, %g)", gcp.ErrNonFinite, n.yMean, n.yScale)
	}
	if n.yScale <= 0 {
		return fmt.Errorf("%w: target scale %g, want > 0", gcp.ErrFormat, n.yScale)
	}
	for j, s := range n.xScale {
		if s <= 0 {
			return fmt.Errorf("%w: feature %d's scale %g, want > 0", gcp.ErrFormat, j, s)
		}
	}
	if err := n.stackNets(); err != nil {
		return err
	}
	*m = *n
	return nil
}
