package bayes

import (
	"encoding/binary"
	"fmt"
	"io"
	"math"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/binfmt"
)

// The saved-model format of a PBP model; MarshalBinary documents it byte
// by byte.
const (
	fileVersion = 1
	headerLen   = 25 // magic through the header CRC
	scalarsLen  = 68 // Seed through yScale
	crcLen      = binfmt.CRCLen
)

// pbpFormat is the PBP format's magic, version and header length, which
// package binfmt checks and reads by.
var pbpFormat = binfmt.Format{
	Magic:      atomicfile.MagicPBP,
	MaxVersion: fileVersion,
	HeaderLen:  func(uint16) int { return headerLen },
}

// maxTrainedEpochs bounds the stored count of epochs trained, so that it
// fits an int on every platform and the next epoch's stream cannot wrap.
const maxTrainedEpochs = 1 << 31

var le = binary.LittleEndian

// header is the size information at the start of a saved model.
type header struct{ depth, inputs, params int }

// size returns the length of the whole saved model.
func (h header) size() int {
	return headerLen + 4*h.depth + scalarsLen + 8*(6*h.params+2*h.inputs) + crcLen
}

// MarshalBinary encodes the model, bit for bit, so that UnmarshalBinary
// restores a model that predicts and trains exactly as this one.
//
// The format is little-endian throughout, floats as their IEEE 754 bits.
// With D = len(Hidden), I = Inputs and P the number of weights:
//
//	offset      size field
//	Header, validated before the rest is read or anything is allocated:
//	0           10   magic "GCPPBP\x89\r\n\x1a": 0x89 catches a transfer
//	                 that strips the eighth bit, \r\n one that rewrites line
//	                 endings, \x1a (Ctrl-Z) ends a text-mode read on Windows
//	10          2    format version, uint16: 1
//	12          1    D, 0..64
//	13          4    I, uint32, 1..65536
//	17          4    P, uint32, at most 2^22, the count Hidden implies
//	21          4    CRC-32C (Castagnoli) of bytes 0..20
//	Body:
//	25          4·D  Hidden[0..D), uint32 each, 1..65536
//	25+4D       8    Seed, uint64
//	33+4D       4    Epochs, uint32, 1..2^20
//	37+4D       8    epochs trained so far, uint64, below 2^31
//	45+4D       8    a of the noise precision's Gamma posterior, > 1
//	53+4D       8    its b, > 0
//	61+4D       8    a of the prior precision's Gamma posterior, > 1
//	69+4D       8    its b, > 0
//	77+4D       8    centre of the training targets (their median, or
//	                 their mean under MeanSD and in files of releases before
//	                 Standardization: the model maps through it either way)
//	85+4D       8    their scale, > 0 (IQR/1.349, or standard deviation)
//	93+4D       8·P  the weights' posterior means, in the layout's order
//	                 (layer by layer, one row per unit, the bias last)
//	93+4D+8P    8·P  their posterior variances, > 0
//	93+4D+16P   32·P the natural parameters of the prior factors: the
//	                 mean·precision, precision, shape and rate parts, P each
//	93+4D+48P   8·I  the features' training centres, as the target's
//	93+4D+48P+8I 8·I their scales, > 0
//	93+4D+48P+16I 4  CRC-32C of every byte before it
//
// The whole model is 97 + 4D + 48P + 16I bytes. The header has a CRC of its
// own so that a flipped bit in a size reads as gcp.ErrChecksum rather than
// as a truncation, and so that ReadFrom can trust the sizes before it
// reads the rest. MarshalBinary fails only for a nil PBP, with
// gcp.ErrConfig.
func (m *PBP) MarshalBinary() ([]byte, error) {
	if m == nil || m.buf == nil {
		return nil, fmt.Errorf("%w: nil or zero PBP", gcp.ErrConfig)
	}
	h := header{depth: len(m.cfg.Hidden), inputs: m.cfg.Inputs, params: m.lay.params()}
	b := make([]byte, 0, h.size())
	b = pbpFormat.AppendPrefix(b, fileVersion)
	b = append(b, byte(h.depth))
	b = le.AppendUint32(b, uint32(h.inputs))
	b = le.AppendUint32(b, uint32(h.params))
	b = binfmt.AppendCRC(b)
	for _, w := range m.cfg.Hidden {
		b = le.AppendUint32(b, uint32(w))
	}
	b = le.AppendUint64(b, m.cfg.Seed)
	b = le.AppendUint32(b, uint32(m.cfg.Epochs))
	b = le.AppendUint64(b, uint64(m.epochs))
	for _, v := range [...]float64{m.noiseA, m.noiseB, m.priorA, m.priorB, m.yMean, m.yScale} {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	for _, v := range m.buf {
		b = le.AppendUint64(b, math.Float64bits(v))
	}
	return binfmt.AppendCRC(b), nil
}

// UnmarshalBinary decodes a model written by MarshalBinary into m,
// replacing its contents; data is not retained. Errors, matched with
// errors.Is: gcp.ErrMagic (not a saved PBP model), gcp.ErrVersion,
// gcp.ErrTruncated, gcp.ErrChecksum, gcp.ErrFormat (sizes beyond the
// limits, a weight count that does not match Hidden, an invalid Gamma,
// variance or scale, bytes after the end), gcp.ErrConfig (an invalid
// stored Epochs) and gcp.ErrNonFinite (a NaN or infinite stored value).
// On error m is left unchanged.
func (m *PBP) UnmarshalBinary(data []byte) error {
	if m == nil {
		return fmt.Errorf("%w: nil PBP", gcp.ErrConfig)
	}
	d, err := decode(data)
	if err != nil {
		return err
	}
	*m = *d
	return nil
}

// WriteTo writes the model in the format of MarshalBinary to w and
// returns the number of bytes written.
func (m *PBP) WriteTo(w io.Writer) (int64, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// ReadFrom reads one model in the format of MarshalBinary from r into m
// and returns the number of bytes read. It reads the header, validates
// it, and then exactly the rest of the model, so that models can be
// stored one after another in a stream; its buffer grows with what r
// delivers, not to the size the header claims. A stream that ends early
// gives gcp.ErrTruncated, and one that ends before its first byte an
// error that matches both gcp.ErrTruncated and io.EOF, so that a loop over
// a stream of models can stop at io.EOF; other read errors are returned
// wrapped, the format's errors as UnmarshalBinary's. On error m is left
// unchanged.
func (m *PBP) ReadFrom(r io.Reader) (int64, error) {
	if m == nil {
		return 0, fmt.Errorf("%w: nil PBP", gcp.ErrConfig)
	}
	return pbpFormat.ReadOne(r, func(head []byte) (int64, error) {
		h, err := parseHeader(head)
		return int64(h.size()), err
	}, m.UnmarshalBinary)
}

// parseHeader checks the header at the start of data, which may be the
// header alone: its magic, version and CRC (binfmt.Format.Header), then
// its sizes against the limits. It returns the sizes.
func parseHeader(data []byte) (header, error) {
	if _, err := pbpFormat.Header(data); err != nil {
		return header{}, err
	}
	depth, inputs, params := int(data[12]), le.Uint32(data[13:]), le.Uint32(data[17:])
	switch {
	case depth > maxDepth:
		return header{}, fmt.Errorf("%w: offset 12: %d hidden layers, at most %d", gcp.ErrFormat, depth, maxDepth)
	case inputs < 1 || inputs > maxInputs:
		return header{}, fmt.Errorf("%w: offset 13: %d inputs, want 1..%d", gcp.ErrFormat, inputs, maxInputs)
	case params > maxParams:
		return header{}, fmt.Errorf("%w: offset 17: %d weights, at most %d", gcp.ErrFormat, params, maxParams)
	}
	return header{depth: depth, inputs: int(inputs), params: int(params)}, nil
}

// decode parses and validates a whole saved model and returns it as a new
// PBP.
func decode(data []byte) (*PBP, error) {
	h, err := parseHeader(data)
	if err != nil {
		return nil, err
	}
	if err := binfmt.Complete(data, int64(h.size())); err != nil {
		return nil, err
	}
	d := binfmt.NewDecoder(data, headerLen)
	cfg := PBPConfig{Inputs: h.inputs, Hidden: make([]int, h.depth)}
	for i := range cfg.Hidden {
		w := d.U32()
		if w < 1 || w > maxWidth {
			return nil, fmt.Errorf("%w: offset %d: Hidden[%d] = %d, want 1..%d", gcp.ErrFormat, d.Off()-4, i, w, maxWidth)
		}
		cfg.Hidden[i] = int(w)
	}
	if p := paramCount(cfg.Inputs, cfg.Hidden); p != int64(h.params) {
		return nil, fmt.Errorf("%w: Hidden makes %d weights, the header says %d", gcp.ErrFormat, p, h.params)
	}
	cfg.Seed = d.U64()
	cfg.Epochs = int(d.U32())
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	m := newModel(cfg)
	epochs := d.U64()
	if epochs >= maxTrainedEpochs {
		return nil, fmt.Errorf("%w: offset %d: %d epochs trained, want fewer than %d", gcp.ErrFormat, d.Off()-8, epochs, uint64(maxTrainedEpochs))
	}
	m.epochs = int(epochs)
	scalars := [...]*float64{&m.noiseA, &m.noiseB, &m.priorA, &m.priorB, &m.yMean, &m.yScale}
	for _, p := range scalars {
		*p = d.F64()
	}
	for i := range m.buf {
		m.buf[i] = d.F64()
	}
	return m, m.check()
}

// check validates the values of a decoded model: all finite, the Gammas'
// shapes above 1 and rates positive, the variances and scales positive.
func (m *PBP) check() error {
	for i, v := range append([]float64{m.noiseA, m.noiseB, m.priorA, m.priorB, m.yMean, m.yScale}, m.buf...) {
		if !finite(v) {
			return fmt.Errorf("%w: stored value %d is %g", gcp.ErrNonFinite, i, v)
		}
	}
	switch {
	case !(m.noiseA > 1 && m.noiseB > 0):
		return fmt.Errorf("%w: noise precision Gamma(%g, %g), want shape > 1 and rate > 0", gcp.ErrFormat, m.noiseA, m.noiseB)
	case !(m.priorA > 1 && m.priorB > 0):
		return fmt.Errorf("%w: prior precision Gamma(%g, %g), want shape > 1 and rate > 0", gcp.ErrFormat, m.priorA, m.priorB)
	case !(m.yScale > 0):
		return fmt.Errorf("%w: target scale %g, want > 0", gcp.ErrFormat, m.yScale)
	}
	for i, v := range m.variance {
		if !(v > 0) {
			return fmt.Errorf("%w: weight %d has variance %g, want > 0", gcp.ErrFormat, i, v)
		}
	}
	for j, s := range m.xScale {
		if !(s > 0) {
			return fmt.Errorf("%w: feature %d has scale %g, want > 0", gcp.ErrFormat, j, s)
		}
	}
	return nil
}
