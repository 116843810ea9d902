package binfmt

import (
	"fmt"
	"io"
)

// ReadOne reads one file of format f from r, hands its bytes to decode
// and returns the number of bytes read. It reads exactly the file's
// bytes and nothing after them, so that files can be stored one after
// another in a stream: the magic and version, then the rest of that
// version's header, whose sizes size validates and sums to the length of
// the whole file, then the rest. Its buffer grows with what r delivers
// (at most doubling), never to the size the header claims: a stream that
// claims a huge file and ends costs memory in proportion to what it
// sent. This is the module's one guard against such amplification.
//
// A stream that ends early is not an error here: size or decode reports
// the short data as ErrTruncated. A stream that ends before its first
// byte gives an error that matches both ErrTruncated and io.EOF, so that
// a loop over a stream of files can stop at io.EOF; a reader that
// returns no data and no error maxEmptyReads times in a row gives
// io.ErrNoProgress, and other read errors are returned wrapped, with the
// number of bytes read before them. size's and decode's errors are
// returned as they are.
func (f *Format) ReadOne(r io.Reader, size func(head []byte) (int64, error), decode func(data []byte) error) (int64, error) {
	b, err := readBounded(r, nil, int64(f.prefixLen()))
	switch {
	case err != nil:
		return int64(len(b)), fmt.Errorf("reading a saved model: %w", err)
	case len(b) == 0:
		return 0, fmt.Errorf("%w: no bytes before %w", ErrTruncated, io.EOF)
	}
	if v, err := f.version(b); err == nil {
		if b, err = readBounded(r, b, int64(f.HeaderLen(v))); err != nil {
			return int64(len(b)), fmt.Errorf("reading a saved model: %w", err)
		}
	}
	n, err := size(b)
	if err != nil {
		return int64(len(b)), err
	}
	if b, err = readBounded(r, b, n); err != nil {
		return int64(len(b)), fmt.Errorf("reading a saved model: %w", err)
	}
	return int64(len(b)), decode(b)
}

// readBounded reads from r and appends to b until b holds size bytes or r
// ends; an early end is not an error here. The capacity at most doubles,
// plus 512 bytes, per growth and never exceeds size, so b never grows
// much beyond what has arrived.
func readBounded(r io.Reader, b []byte, size int64) ([]byte, error) {
	empty := 0
	for int64(len(b)) < size {
		if len(b) == cap(b) {
			nb := make([]byte, len(b), min(size, 2*int64(cap(b))+512))
			copy(nb, b)
			b = nb
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
		if n > 0 {
			empty = 0
		} else if empty++; empty == maxEmptyReads {
			return b, io.ErrNoProgress // a reader that breaks the io.Reader contract
		}
	}
	return b, nil
}

// maxEmptyReads is how many reads in a row may return no data and no error
// before ReadOne gives up with io.ErrNoProgress, as bufio does.
const maxEmptyReads = 100
