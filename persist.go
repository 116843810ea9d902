package gcp

import (
	"errors"
	"fmt"
	"io"
	"math"
	"reflect"

	"github.com/gcpnet/gcp/internal/atomicfile"
	"github.com/gcpnet/gcp/internal/binfmt"
)

// The saved-model format, versions 1 to 8; docs/format.md documents them
// byte by byte.
const (
	headerLen   = 24 // magic through the header CRC, versions 1 and 2
	headerLenV3 = 28 // version 3 adds the names' length before the CRC
	headerLenV5 = 32 // version 5 adds the sections' length after it
	scalarsLen  = 42 // Activation through yScale, after the hidden widths
	lossLen     = 13 // version 2's Loss, DPDGamma and MCSamples
	membersLen  = 4  // version 4's Members, after the loss fields
	crcLen      = binfmt.CRCLen
)

// The format versions: 1 holds GCP models, 2 adds the loss and its
// parameters for the comparators, 3 what the model remembers of its
// training data and its calibration, 4 the number of members of an
// ensemble, 5 the tagged sections (sections.go), 6 date columns in the
// encoding section, so that a release that knows no date column refuses
// such a model as written by a newer release, 7 several targets (the
// targets section), 8 a model whose law is the Gaussian copula of
// one-target models (the copula section). A model is written in
// the lowest version that holds it, so that a file stays readable by as
// many versions of this package as it can: a single GCP network without
// names, ranges or calibration as version 1, a comparator as version 2,
// only an ensemble as version 4, only a model with a section as version
// 5, and only a model with a date column as version 6.
const (
	fileVersionGCP      = 1
	fileVersionLoss     = 2
	fileVersionData     = 3
	fileVersionMembers  = 4
	fileVersionSections = 5
	fileVersionDates    = 6
	fileVersionTargets  = 7
	fileVersionCopula   = 8
)

// maxNamesLen bounds a version-3 file's names section: a length and
// maxNameLen bytes for the target and every input.
func maxNamesLen(inputs int) int64 { return int64(inputs+1) * (2 + maxNameLen) }

// The header stores D in one byte and I, Hidden[i] and P in four; these
// constant declarations stop the build if a limit outgrows its field.
const (
	_ uint8  = maxDepth
	_ uint32 = maxWidth
	_ uint32 = maxParams
)

// float32Overflow is the smallest float64 that rounds to ±Inf in float32:
// MaxFloat32 plus half its ulp, where the tie rounds to the even, infinite
// neighbour. The narrowing check compares against it before converting,
// since the Go spec makes an out-of-range conversion's result
// implementation-dependent.
const float32Overflow = 0x1.ffffffp127

// modelFormat is the saved-model format's magic, versions and header
// lengths, which package binfmt checks and reads by.
var modelFormat = binfmt.Format{
	Magic:      atomicfile.MagicGCPM,
	MaxVersion: fileVersionCopula,
	HeaderLen:  func(v uint16) int { return int(header{version: int(v)}.headerLen()) },
}

// header is the size information of a saved model, all validated against
// the package limits before any of it is used.
type header struct {
	version int
	esize   int // bytes per parameter: 4 or 8
	depth   int // D, hidden layers
	inputs  int // I
	params  int // P
	names   int // N, version 3's names section in bytes
	// sections is X, version 5's sections in bytes.
	sections int
}

// size returns the length of the whole saved model, in int64 so that the
// largest model the limits allow cannot overflow a 32-bit int.
func (h header) size() int64 {
	return h.headerLen() + 4*int64(h.depth) + scalarsLen + h.lossLen() + 16*int64(h.inputs) + h.dataLen() + int64(h.esize)*int64(h.params) + int64(h.sections) + crcLen
}

// headerLen returns the header's size in h's version.
func (h header) headerLen() int64 {
	switch {
	case h.version >= fileVersionSections:
		return headerLenV5
	case h.version >= fileVersionData:
		return headerLenV3
	}
	return headerLen
}

// lossLen returns the size of the loss fields, which version 1 lacks and
// versions 4 and 5 end with Members.
func (h header) lossLen() int64 {
	switch {
	case h.version == fileVersionGCP:
		return 0
	case h.version >= fileVersionMembers:
		return lossLen + membersLen
	}
	return lossLen
}

// dataLen returns the size of the calibration, ranges and names of
// versions 3 and 4.
func (h header) dataLen() int64 {
	if h.version < fileVersionData {
		return 0
	}
	return 8 + 8 + 1 + 16*int64(h.inputs) + int64(h.names)
}

// elemSize returns the size in bytes of T.
func elemSize[T Float]() int {
	var zero T
	if _, ok := any(zero).(float32); ok {
		return 4
	}
	return 8
}

// MarshalBinary encodes the model: its Config, its standardization and its
// parameters, bit for bit, so that UnmarshalBinary restores a model that
// predicts and trains exactly as this one. It fails only for a zero Model,
// with ErrConfig, and for a model whose law is the Gaussian copula of
// one-target models if its marginals' files add up to more than the
// format's 4 GiB. Such a model is written with each marginal's own
// file inside it (format version 8), and reads back to one that predicts
// exactly as it did.
//
// The format is little-endian, floats as their IEEE 754 bits, and
// versioned: a model is written in the lowest of versions 1 to 8 that
// holds everything it has, so that older releases read it. The module's
// docs/format.md lays out every version byte by byte.
func (m *Model[T]) MarshalBinary() ([]byte, error) {
	if m == nil {
		return nil, fmt.Errorf("%w: nil Model", ErrConfig)
	}
	if err := m.cfg.validate(); err != nil {
		return nil, err
	}
	b := m.encode()
	if m.margins != nil && int64(len(b)) > copulaMaxLen(m.cfg.Inputs) {
		return nil, fmt.Errorf("%w: a copula model of %d bytes, beyond the format's %d", ErrConfig, len(b), copulaMaxLen(m.cfg.Inputs))
	}
	return b, nil
}

// copulaFile returns what the file of m, a copula model, holds: m without
// what the loader derives from the marginals (names, ranges, encoding,
// transforms), with the marginals' files (copulaLaw.files).
func (m *Model[T]) copulaFile() *Model[T] {
	c := *m
	c.margins, c.featureNames, c.targetName, c.xMin, c.xMax = nil, nil, "", nil, nil
	law := &copulaLaw{chol: m.ext.copula.chol, files: make([][]byte, len(m.margins))}
	for j, g := range m.margins {
		law.files[j] = g.encode()
	}
	c.ext = extensions{targets: m.ext.targets, region: m.ext.region, copula: law}
	return &c
}

// encode writes the model in the format of MarshalBinary without checking
// it, so that tests can build malformed models.
func (m *Model[T]) encode() []byte {
	if m.margins != nil {
		m = m.copulaFile()
	}
	h := header{version: fileVersionGCP, esize: elemSize[T](), depth: len(m.cfg.Hidden), inputs: m.cfg.Inputs, params: len(m.params)}
	if m.cfg.Loss != LossGCP {
		h.version = fileVersionLoss
	}
	var names []byte
	if m.featureNames != nil {
		for _, name := range append([]string{m.targetName}, m.featureNames...) {
			names = appendName(names, name)
		}
	}
	if names != nil || m.xMin != nil || m.varScale != 1 || m.corrScale != 1 {
		h.version, h.names = fileVersionData, len(names)
	}
	if m.cfg.Members > 1 {
		h.version, h.names = fileVersionMembers, len(names)
	}
	sections := appendSections(nil, &m.ext)
	if len(sections) > 0 {
		h.version, h.names, h.sections = fileVersionSections, len(names), len(sections)
	}
	if m.ext.encoding.hasDates() {
		h.version = fileVersionDates
	}
	if m.cfg.Targets > 1 {
		h.version = fileVersionTargets
	}
	if m.ext.copula != nil {
		h.version = fileVersionCopula
	}
	b := make([]byte, 0, h.size())
	b = modelFormat.AppendPrefix(b, uint16(h.version))
	b = append(b, byte(h.esize), byte(h.depth))
	b = le.AppendUint32(b, uint32(h.inputs))
	b = le.AppendUint32(b, uint32(h.params))
	if h.version >= fileVersionData {
		b = le.AppendUint32(b, uint32(h.names))
	}
	if h.version >= fileVersionSections {
		b = le.AppendUint32(b, uint32(h.sections))
	}
	b = binfmt.AppendCRC(b)
	for _, w := range m.cfg.Hidden {
		b = le.AppendUint32(b, uint32(w))
	}
	var std byte
	if m.standardized {
		std = 1
	}
	b = append(b, byte(m.cfg.Activation), std)
	b = le.AppendUint64(b, math.Float64bits(m.cfg.Dropout))
	b = le.AppendUint64(b, math.Float64bits(m.cfg.FixedAlpha))
	b = le.AppendUint64(b, m.cfg.Seed)
	if h.version != fileVersionGCP {
		b = append(b, byte(m.cfg.Loss))
		b = le.AppendUint64(b, math.Float64bits(m.cfg.DPDGamma))
		b = le.AppendUint32(b, uint32(m.cfg.MCSamples))
	}
	if h.version >= fileVersionMembers {
		b = le.AppendUint32(b, uint32(m.cfg.Members))
	}
	b = le.AppendUint64(b, math.Float64bits(m.yMean))
	b = le.AppendUint64(b, math.Float64bits(m.yScale))
	b = appendFloats(b, m.xMean, m.xScale)
	if h.version >= fileVersionData {
		b = le.AppendUint64(b, math.Float64bits(m.varScale))
		b = le.AppendUint64(b, math.Float64bits(m.corrScale))
		if m.xMin != nil {
			b = append(b, 1)
			b = appendFloats(b, m.xMin, m.xMax)
		} else {
			b = append(b, 0)
			b = append(b, make([]byte, 16*h.inputs)...)
		}
		b = append(b, names...)
	}
	for _, v := range m.params {
		if h.esize == 4 {
			b = le.AppendUint32(b, math.Float32bits(float32(v)))
		} else {
			b = le.AppendUint64(b, math.Float64bits(float64(v)))
		}
	}
	b = append(b, sections...)
	return binfmt.AppendCRC(b)
}

// appendFloats appends the IEEE 754 bits of every value of each slice.
func appendFloats(b []byte, slices ...[]float64) []byte {
	for _, s := range slices {
		for _, v := range s {
			b = le.AppendUint64(b, math.Float64bits(v))
		}
	}
	return b
}

// UnmarshalBinary replaces m with the model encoded in data by
// MarshalBinary; it works on a zero Model. data must hold exactly one
// model. A float32 model loads into a Model[float64] exactly; a float64
// model loads into a Model[float32] with every parameter rounded to the
// nearest float32 (ties to even, tiny values to subnormals or zero), and a
// parameter beyond the float32 range gives ErrOverflow rather than ±Inf
// (if nothing else in data is wrong: otherwise that error, as for
// Model[float64]).
//
// Every size is checked against the package limits before anything is
// allocated, so hostile data cannot cause an allocation larger than itself
// by more than a small factor, plus, for a LossMLBayes model, its
// MC-dropout masks, which Config bounds at 2¹⁸ elements. Errors, matched with errors.Is: ErrMagic,
// ErrVersion, ErrTruncated, ErrChecksum, ErrFormat (sizes beyond the
// limits, a parameter count that does not fit the Config, a malformed
// section, trailing bytes),
// ErrConfig (a stored Config that New would reject), ErrNonFinite (a NaN or
// ±Inf parameter, or a standardization that SetStandardization would
// reject) and ErrOverflow. On error m is left unchanged.
//
// UnmarshalBinary must not run beside prediction, training or any other
// method on m (see Model). A Trainer built
// on m before should be replaced by a new one: its optimizer state belongs
// to the old parameters, and if the shape changed its Step returns
// ErrShape.
func (m *Model[T]) UnmarshalBinary(data []byte) error {
	if m == nil {
		return fmt.Errorf("%w: nil Model", ErrConfig)
	}
	d, err := decode[T](data)
	if err != nil {
		return err
	}
	*m = *d
	return nil
}

// WriteTo writes the model to w in the format of MarshalBinary and returns
// the number of bytes written.
func (m *Model[T]) WriteTo(w io.Writer) (int64, error) {
	b, err := m.MarshalBinary()
	if err != nil {
		return 0, err
	}
	n, err := w.Write(b)
	return int64(n), err
}

// ReadFrom replaces m with one model read from r, as UnmarshalBinary does,
// and returns the number of bytes read. It reads exactly the model's
// bytes and nothing after them, so models can be stored one after another
// in a stream. It reads and validates the header first, and then the rest
// in a buffer that grows with what r delivers (at most doubling) rather
// than to the size the header claims: a stream that claims a huge model
// and ends costs memory in proportion to what it sent. A stream that ends early gives ErrTruncated, and
// one that ends before its first byte an error that matches both
// ErrTruncated and io.EOF, so a loop over a stream of models can stop at
// io.EOF; other read errors are returned wrapped. On error m is left
// unchanged. Like UnmarshalBinary, it must not run beside prediction or
// any other method on m (see Model).
func (m *Model[T]) ReadFrom(r io.Reader) (int64, error) {
	if m == nil {
		return 0, fmt.Errorf("%w: nil Model", ErrConfig)
	}
	return modelFormat.ReadOne(r, func(head []byte) (int64, error) {
		h, err := parseHeader(head)
		return h.size(), err
	}, m.UnmarshalBinary)
}

// parseHeader checks the header at the start of data, which may be the
// header alone: its magic, version and CRC (binfmt.Format.Header), then
// its sizes against the package limits. It returns the sizes.
func parseHeader(data []byte) (header, error) {
	v, err := modelFormat.Header(data)
	if err != nil {
		return header{}, err
	}
	var names, sections uint32
	if v >= fileVersionData {
		names = le.Uint32(data[20:])
	}
	if v >= fileVersionSections {
		sections = le.Uint32(data[24:])
	}
	esize, depth, inputs, params := data[10], data[11], le.Uint32(data[12:]), le.Uint32(data[16:])
	switch {
	case esize != 4 && esize != 8:
		return header{}, fmt.Errorf("%w: offset 10: element size %d, want 4 or 8", ErrFormat, esize)
	case depth < 1 || depth > maxDepth:
		return header{}, fmt.Errorf("%w: offset 11: %d hidden layers, want 1..%d", ErrFormat, depth, maxDepth)
	case inputs > maxWidth:
		return header{}, fmt.Errorf("%w: offset 12: %d inputs, want at most %d", ErrFormat, inputs, maxWidth)
	case params > maxParams:
		return header{}, fmt.Errorf("%w: offset 16: %d parameters, want at most %d", ErrFormat, params, maxParams)
	case int64(names) > maxNamesLen(int(inputs)):
		return header{}, fmt.Errorf("%w: offset 20: names of %d bytes, want at most %d", ErrFormat, names, maxNamesLen(int(inputs)))
	case v >= fileVersionSections && (sections == 0 || int64(sections) > sectionsBound(v, int(inputs))):
		// A model without a section is written in an earlier version:
		// one model, one encoding.
		return header{}, fmt.Errorf("%w: offset 24: sections of %d bytes, want 1 to %d", ErrFormat, sections, sectionsBound(v, int(inputs)))
	}
	return header{version: int(v), esize: int(esize), depth: int(depth), inputs: int(inputs), params: int(params), names: int(names), sections: int(sections)}, nil
}

// sectionsBound returns the bound on the sections of a file of version v
// and the given number of inputs: copulaSectionsLen for version 8,
// maxSectionsLen for the others.
func sectionsBound(v uint16, inputs int) int64 {
	if v == fileVersionCopula {
		return copulaSectionsLen(inputs)
	}
	return maxSectionsLen(inputs)
}

// decode parses a whole saved model, validates it and returns it as a new
// Model[T]; data is not retained.
func decode[T Float](data []byte) (*Model[T], error) {
	m, overflow, err := decodeAccepting[T](data, nil)
	if err == nil {
		err = overflow
	}
	if err != nil {
		return nil, err
	}
	return m, nil
}

// decodeAccepting is decode, which refuses, with the error accept returns,
// a model whose validated Config accept does not accept, before it
// allocates for the model (nil accepts every Config). A parameter beyond
// T's range is not an error but overflow, an ErrOverflow, beside the
// model read with 0 in its place: a load fails with it only if the rest
// of the file is valid.
func decodeAccepting[T Float](data []byte, accept func(Config) error) (m *Model[T], overflow, err error) {
	h, err := parseHeader(data)
	if err != nil {
		return nil, nil, err
	}
	if err := binfmt.Complete(data, h.size()); err != nil {
		return nil, nil, err
	}
	end := len(data) - crcLen
	d := binfmt.NewDecoder(data, int(h.headerLen()))
	hidden := make([]int, h.depth)
	for i := range hidden {
		w := d.U32()
		if w > maxWidth {
			return nil, nil, fmt.Errorf("%w: offset %d: Hidden[%d] = %d, want at most %d", ErrFormat, d.Off()-4, i, w, maxWidth)
		}
		hidden[i] = int(w)
	}
	act, std := d.U8(), d.U8()
	if std > 1 {
		return nil, nil, fmt.Errorf("%w: offset %d: standardized flag %d, want 0 or 1", ErrFormat, d.Off()-1, std)
	}
	cfg := Config{Inputs: h.inputs, Hidden: hidden, Activation: Activation(act), Members: 1}
	cfg.Dropout = d.F64()
	cfg.FixedAlpha = d.F64()
	cfg.Seed = d.U64()
	if h.version != fileVersionGCP {
		off := d.Off()
		cfg.Loss, cfg.DPDGamma, cfg.MCSamples = Loss(d.U8()), d.F64(), int(d.U32())
		if h.version == fileVersionLoss && cfg.Loss == LossGCP {
			// The encoder writes GCP models as version 1; accepting them
			// here too would give one model two encodings.
			return nil, nil, fmt.Errorf("%w: offset %d: version %d with Loss = LossGCP, which is version %d", ErrFormat, off, fileVersionLoss, fileVersionGCP)
		}
	}
	if h.version >= fileVersionMembers {
		off := d.Off()
		if cfg.Members = int(d.U32()); cfg.Members == 1 && h.version == fileVersionMembers {
			// A single network is version 1, 2 or 3: one model, one encoding.
			return nil, nil, fmt.Errorf("%w: offset %d: version %d with Members = 1, which is version %d at most", ErrFormat, off, fileVersionMembers, fileVersionData)
		}
	}
	if h.version >= fileVersionTargets {
		cfg.Targets = peekTargets(data[end-h.sections : end])
		if cfg.Targets < 2 {
			return nil, nil, fmt.Errorf("%w: offset 8: version %d without a targets section", ErrFormat, h.version)
		}
	}
	if err := cfg.validate(); err != nil {
		return nil, nil, err
	}
	if accept != nil {
		if err := accept(cfg); err != nil {
			return nil, nil, err
		}
	}
	copula := h.version == fileVersionCopula
	if copula {
		if h.params != 0 || std != 0 {
			return nil, nil, fmt.Errorf("%w: offset 16: a copula model with %d parameters and standardized flag %d, want none and 0", ErrFormat, h.params, std)
		}
		m = &Model[T]{cfg: cfg, k: kernelsFor[T](), varScale: 1, corrScale: 1,
			xMean: make([]float64, cfg.Inputs), xScale: make([]float64, cfg.Inputs), xInvScale: make([]float64, cfg.Inputs)}
		m.resetStandardization()
	} else {
		lay, ok := cfg.layout()
		if !ok || lay.size != h.params {
			return nil, nil, fmt.Errorf("%w: offset 16: %d parameters, but Inputs = %d, Hidden = %v, FixedAlpha = %v, Loss = %v and Targets = %d make a different number",
				ErrFormat, h.params, cfg.Inputs, cfg.Hidden, cfg.FixedAlpha, cfg.Loss, cfg.Targets)
		}
		m = newModel[T](cfg, lay)
	}
	if err := decodeStandardization(d, m, std == 1); err != nil {
		return nil, nil, err
	}
	if h.version >= fileVersionData {
		off := d.Off()
		if err := decodeData(d, m, h.names); err != nil {
			return nil, nil, err
		}
		if copula && (m.varScale != 1 || m.xMin != nil || h.names != 0) {
			return nil, nil, fmt.Errorf("%w: offset %d: a copula model with VarScale %v, ranges or names, which its marginals hold", ErrFormat, off, m.varScale)
		}
	}
	// A parameter that overflows T fails the load only if the rest of the
	// file is valid: a float64 file fails as Model[float32] with
	// ErrOverflow exactly when it loads as Model[float64], and otherwise
	// with the same error.
	overflow = decodeParams(d, m.params, h.esize)
	if overflow != nil && !errors.Is(overflow, ErrOverflow) {
		return nil, nil, overflow
	}
	off := d.Off()
	if err := parseSections(d.Bytes(end-off), off, &m.ext, cfg); err != nil {
		return nil, nil, err
	}
	if dates := m.ext.encoding.hasDates(); dates && h.version < fileVersionDates || !dates && h.version == fileVersionDates {
		return nil, nil, fmt.Errorf("%w: offset 8: version %d for a model with date columns: %v; want version %d exactly when it has some (or %d with several targets)", ErrFormat, h.version, dates, fileVersionDates, fileVersionTargets)
	}
	if enc := m.ext.encoding; enc != nil {
		// The encoding names the target and the inputs.
		if h.names != 0 {
			return nil, nil, fmt.Errorf("%w: offset 20: names of %d bytes beside an encoding, which holds them", ErrFormat, h.names)
		}
		m.targetName = enc.target
	}
	if copula || m.ext.copula != nil {
		return decodeCopula(m, h, off)
	}
	return m, overflow, nil
}

// decodeCopula returns the copula model that m holds, read from a file of
// header h whose sections start at offset off: the marginals' files read
// as one-target models, each of the Config m's is with one target, and
// the model built from them as newCopulaModel builds it, with m's joint
// region as it was read. Whatever is wrong is an ErrFormat; a marginal's
// parameter beyond float32 is overflow, as decodeAccepting's.
func decodeCopula[T Float](m *Model[T], h header, off int) (c *Model[T], overflow, err error) {
	e := &m.ext
	switch {
	case h.version != fileVersionCopula || e.copula == nil:
		return nil, nil, fmt.Errorf("%w: offset 8: version %d with a copula section: %v; want version %d exactly when it has one", ErrFormat, h.version, e.copula != nil, fileVersionCopula)
	case e.transform != TransformNone || e.encoding != nil || e.conformal != nil || e.transforms != [maxTargets]TargetTransform{} || e.inputBound != 0:
		return nil, nil, fmt.Errorf("%w: offset %d: a copula model with sections its marginals hold", ErrFormat, off)
	}
	for j, s := range e.targets.scales {
		if math.Float64bits(e.targets.means[j]) != 0 || s != 1 {
			return nil, nil, fmt.Errorf("%w: offset %d: a copula model's target %d standardized as (%v, %v), want the identity", ErrFormat, off, j, e.targets.means[j], s)
		}
	}
	want := m.cfg.withDefaults()
	want.Targets = 0
	margins := make([]*Model[T], len(e.copula.files))
	for j, f := range e.copula.files {
		// Each marginal one target of the model's inputs, whose Config
		// with Targets = d is valid (copulaMarginConfig), the first the
		// model's own Config with one target; refused before its
		// parameters are allocated.
		g, ov, err := decodeAccepting[T](f, func(c Config) error {
			c = c.withDefaults()
			if err := copulaMarginConfig(c, m.cfg.Inputs, m.cfg.Targets); err != nil {
				return err
			}
			if j == 0 && !reflect.DeepEqual(c, want) {
				return fmt.Errorf("%w: Config %+v, the copula model's is %+v with one target", ErrFormat, c, want)
			}
			return nil
		})
		if err != nil {
			// One sentinel an error: the marginal's own (ErrChecksum, say)
			// in the text of ErrFormat's.
			return nil, nil, fmt.Errorf("%w: offset %d: copula section, marginal %d: %v", ErrFormat, off, j, err)
		}
		if ov != nil && overflow == nil {
			overflow = fmt.Errorf("offset %d: copula section, marginal %d: %w", off, j, ov)
		}
		margins[j] = g
	}
	nu, conformal := math.Inf(1), (*conformalScores)(nil)
	if r := e.region; r != nil {
		nu, conformal = r.nu, r.conformal
	}
	c, err = newCopulaModel(margins, e.copula.chol, m.corrScale, nu, conformal)
	if err != nil {
		return nil, nil, fmt.Errorf("%w: offset %d: copula section: %v", ErrFormat, off, err)
	}
	c.ext.region = e.region
	return c, overflow, nil
}

// decodeData reads version 3's calibration, ranges and names of size
// names into m. Each must be what the API can set: positive finite
// scales, finite ranges with lo ≤ hi (or, unrecorded, zero bytes), and
// names SetFeatureNames accepts.
func decodeData[T Float](d *binfmt.Decoder, m *Model[T], names int) error {
	off := d.Off()
	if m.varScale, m.corrScale = d.F64(), d.F64(); !positiveFinite(m.varScale) || !positiveFinite(m.corrScale) {
		return fmt.Errorf("%w: offset %d: calibration scales %v and %v, want positive and finite", ErrNonFinite, off, m.varScale, m.corrScale)
	}
	off = d.Off()
	recorded := d.U8()
	lo, hi := make([]float64, m.cfg.Inputs), make([]float64, m.cfg.Inputs)
	for _, s := range [][]float64{lo, hi} {
		for j := range s {
			s[j] = d.F64()
		}
	}
	switch recorded {
	case 0:
		for j := range lo {
			if math.Float64bits(lo[j])|math.Float64bits(hi[j]) != 0 {
				return fmt.Errorf("%w: offset %d: ranges not recorded but not zero", ErrFormat, off)
			}
		}
	case 1:
		for j := range lo {
			if !finite(lo[j]) || !finite(hi[j]) || lo[j] > hi[j] {
				return fmt.Errorf("%w: offset %d: range of feature %d is [%v, %v]", ErrFormat, off, j, lo[j], hi[j])
			}
		}
		m.xMin, m.xMax = lo, hi
	default:
		return fmt.Errorf("%w: offset %d: ranges flag %d, want 0 or 1", ErrFormat, off, recorded)
	}
	if names == 0 {
		return nil
	}
	off = d.Off()
	nd := binfmt.NewDecoder(d.Bytes(names), 0)
	all := make([]string, 0, m.cfg.Inputs+1)
	for nd.Err() == nil && len(all) < m.cfg.Inputs+1 {
		all = append(all, readName(nd))
	}
	switch {
	case nd.Err() != nil:
		return fmt.Errorf("offset %d: names: %w", off, nd.Err())
	case nd.Len() > 0:
		return fmt.Errorf("%w: offset %d: %d bytes after the names", ErrFormat, d.Off()-nd.Len(), nd.Len())
	}
	if err := checkNames(all[1:], all[0]); err != nil {
		return fmt.Errorf("%w: offset %d: %v", ErrFormat, off, err)
	}
	m.targetName, m.featureNames = all[0], all[1:]
	return nil
}

// decodeParams reads len(dst) parameters of esize bytes each, rejecting
// non-finite values, and, when it narrows float64 to float32, reports
// the first value that would round to ±Inf with ErrOverflow after reading
// the rest (each such value stored as 0), so that a later non-finite one
// takes precedence as it does for float64.
func decodeParams[T Float](d *binfmt.Decoder, dst []T, esize int) error {
	narrow := esize > elemSize[T]()
	var overflow error
	for i := range dst {
		off := d.Off()
		var v float64
		if esize == 4 {
			v = float64(d.F32())
		} else {
			v = d.F64()
		}
		if !finite(v) {
			return fmt.Errorf("%w: offset %d: parameter %d = %v", ErrNonFinite, off, i, v)
		}
		if narrow && math.Abs(v) >= float32Overflow {
			if overflow == nil {
				overflow = fmt.Errorf("%w: offset %d: parameter %d = %v", ErrOverflow, off, i, v)
			}
			v = 0
		}
		dst[i] = T(v)
	}
	return overflow
}
