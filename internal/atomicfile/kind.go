package atomicfile

import (
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The magics that open the files this module writes: its three
// saved-model formats (the root package's, and package bayes's PBP and
// SVGD) and PNG. The formats' encoders write these constants, so that a
// file's kind and its format cannot drift apart.
const (
	MagicGCPM = "GCPM\x89\r\n\x1a"
	MagicPBP  = "GCPPBP\x89\r\n\x1a"
	MagicSVGD = "GCPSVGD\x00"
	MagicPNG  = "\x89PNG\r\n\x1a\n"
)

// Kind is a kind of file, told by its first bytes: what a Target may
// replace. An empty file counts as every kind, as it holds nothing to
// lose (mktemp and touch create such files to be written).
type Kind struct {
	Name   string   // what errors call it: "saved model"
	Magics []string // a file of the kind starts with one of them
}

// The kinds of file that the module writes.
var (
	// Model is a saved model of any of the module's formats: a model
	// may replace a model of another method, never anything else.
	Model = Kind{Name: "saved model", Magics: []string{MagicGCPM, MagicPBP, MagicSVGD}}
	// PNG is a PNG image.
	PNG = Kind{Name: "PNG image", Magics: []string{MagicPNG}}
)

// HeadLen is how many bytes of a file tell its kind: the longest magic.
const HeadLen = len(MagicPBP)

// matches reports whether a file that starts with head, its first
// HeadLen bytes or all of a shorter file, is of kind k.
func (k Kind) matches(head []byte) bool {
	if len(head) == 0 {
		return true
	}
	for _, m := range k.Magics {
		if len(head) >= len(m) && string(head[:len(m)]) == m {
			return true
		}
	}
	return false
}

// holds reports whether the file at path, which Lstat or Stat described
// as fi, is of kind k: empty, or opening with one of k's magics. It opens
// the file without blocking (openFlags) and checks that what it opened is
// still that regular file, so that a file swapped for a FIFO after fi was
// taken cannot hang it; a swapped file gives ErrNotRegular.
func (k Kind) holds(path string, fi fs.FileInfo) (bool, error) {
	f, err := os.OpenFile(path, openFlags, 0)
	if err != nil {
		return false, err
	}
	defer f.Close()
	ofi, err := f.Stat()
	if err != nil {
		return false, err
	}
	if !ofi.Mode().IsRegular() || !os.SameFile(fi, ofi) {
		return false, fmt.Errorf("%w: %s changed while it was checked", ErrNotRegular, path)
	}
	head := make([]byte, HeadLen)
	n, err := io.ReadFull(f, head)
	if err != nil && err != io.EOF && err != io.ErrUnexpectedEOF {
		return false, err
	}
	return k.matches(head[:n]), nil
}
