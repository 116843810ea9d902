package binfmt

import (
	"bytes"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"
)

// readToy reads one toy file from r with ReadOne, returning the bytes
// decode was given (nil if it was not called).
func readToy(r io.Reader) (int64, []byte, error) {
	var got []byte
	n, err := toy.ReadOne(r, toySize, func(data []byte) error {
		got = bytes.Clone(data)
		return toyDecode(data)
	})
	return n, got, err
}

// TestReadOneStream reads files of both versions stored one after
// another, from readers that deliver a byte at a time, half of what is
// asked, or the last data with io.EOF: each read takes exactly one file,
// and at the end of the stream ReadOne reports ErrTruncated and io.EOF.
func TestReadOneStream(t *testing.T) {
	files := [][]byte{toyFile(1, 0, 0), toyFile(2, 1000, 1000), toyFile(1, 3, 3), toyFile(2, 70000, 70000)}
	stream := bytes.Join(files, nil)
	for name, wrap := range map[string]func(io.Reader) io.Reader{
		"plain":    func(r io.Reader) io.Reader { return r },
		"one byte": iotest.OneByteReader,
		"half":     iotest.HalfReader,
		"data+EOF": iotest.DataErrReader,
	} {
		r := wrap(bytes.NewReader(stream))
		for i, f := range files {
			n, got, err := readToy(r)
			if err != nil || n != int64(len(f)) || !bytes.Equal(got, f) {
				t.Fatalf("%s: file %d: ReadOne = %d, %v; want %d, nil and the file's bytes", name, i, n, err, len(f))
			}
		}
		if n, got, err := readToy(r); n != 0 || got != nil || !errors.Is(err, ErrTruncated) || !errors.Is(err, io.EOF) {
			t.Errorf("%s: at the end: ReadOne = %d, %v (decode called: %t); want 0 and ErrTruncated and io.EOF", name, n, err, got != nil)
		}
	}
}

// TestReadOneTruncated cuts a file of each version at every byte: ReadOne
// must report ErrTruncated (from the header or from decode) having read
// every byte there was, and never io.EOF once a byte arrived.
func TestReadOneTruncated(t *testing.T) {
	for _, v := range []uint16{1, 2} {
		file := toyFile(v, 50, 50)
		for k := 1; k < len(file); k++ {
			n, _, err := readToy(bytes.NewReader(file[:k]))
			if !errors.Is(err, ErrTruncated) || errors.Is(err, io.EOF) || n != int64(k) {
				t.Errorf("version %d, first %d of %d bytes: ReadOne = %d, %v; want %d and ErrTruncated without io.EOF", v, k, len(file), n, err, k)
			}
		}
	}
}

// TestReadOneErrors checks that the header's errors come through ReadOne
// before decode runs, and that a read error after any number of bytes is
// returned wrapped with the count of bytes read before it.
func TestReadOneErrors(t *testing.T) {
	file := toyFile(2, 50, 50)
	for _, c := range []struct {
		name string
		at   int
		want error
	}{{"magic", 0, ErrMagic}, {"version", len(toy.Magic) + 1, ErrVersion}, {"size", len(toy.Magic) + 2, ErrChecksum}} {
		b := bytes.Clone(file)
		b[c.at] ^= 0x40
		n, got, err := readToy(bytes.NewReader(b))
		if !errors.Is(err, c.want) || got != nil {
			t.Errorf("%s: ReadOne = %d, %v (decode called: %t); want %v before decode", c.name, n, err, got != nil, c.want)
		}
	}
	boom := errors.New("boom")
	for cut := range len(file) {
		r := io.MultiReader(bytes.NewReader(file[:cut]), iotest.ErrReader(boom))
		if n, _, err := readToy(r); !errors.Is(err, boom) || n != int64(cut) {
			t.Errorf("read error after %d bytes: ReadOne = %d, %v; want %d, boom", cut, n, err, cut)
		}
	}
}

// stalledReader returns no data and no error forever, breaking the
// io.Reader contract.
type stalledReader struct{}

func (stalledReader) Read([]byte) (int, error) { return 0, nil }

// TestReadOneStalled checks that a reader that stops delivering without
// an error, in the prefix, the header or the body, gives io.ErrNoProgress
// rather than a loop without end.
func TestReadOneStalled(t *testing.T) {
	file := toyFile(2, 50, 50)
	for _, cut := range []int{0, 5, len(toy.Magic) + 2, 15, 30} {
		r := io.MultiReader(bytes.NewReader(file[:cut]), stalledReader{})
		if n, _, err := readToy(r); !errors.Is(err, io.ErrNoProgress) || n != int64(cut) {
			t.Errorf("stalled after %d bytes: ReadOne = %d, %v; want %d, io.ErrNoProgress", cut, n, err, cut)
		}
	}
}

// TestReadOneHugeClaim feeds ReadOne a valid header that claims a body of
// 4 GiB less a byte, then 4 KiB before the stream ends. The memory it
// takes must follow what arrived, not the claim.
func TestReadOneHugeClaim(t *testing.T) {
	const sent = 4 << 10
	hdr := toyFile(1, 0, 1<<32-1)[:toy.HeaderLen(1)]
	if size, err := toySize(hdr); err != nil || size < 4<<30 {
		t.Fatalf("the header claims %d bytes (%v), want over 4 GiB", size, err)
	}
	body := make([]byte, sent)
	read := func() (int64, error) {
		n, err := toy.ReadOne(io.MultiReader(bytes.NewReader(hdr), bytes.NewReader(body)), toySize, toyDecode)
		return n, err
	}
	var n int64
	var err error
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	n, err = read()
	runtime.ReadMemStats(&after)
	if !errors.Is(err, ErrTruncated) || n != int64(len(hdr)+sent) {
		t.Errorf("ReadOne = %d, %v; want %d, ErrTruncated", n, err, len(hdr)+sent)
	}
	t.Logf("ReadOne: %d bytes delivered, %d allocated", len(hdr)+sent, after.TotalAlloc-before.TotalAlloc)
	// Growth by doubling allocates under 4× what arrived (buffers of at
	// most 2× it, plus the ones they replaced), about 15 KiB here; 64 KiB
	// also covers the readers, the error text and background allocation,
	// and is still 2^16 times below the claim.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 64<<10 {
		t.Errorf("ReadOne allocated %d bytes for %d delivered, want at most 64 KiB", alloc, len(hdr)+sent)
	}
	// Each growth at least doubles the buffer: 2 buffers for the prefix
	// and the header, then 4 for the body's 4 KiB (548, 1608, 3728 and
	// 7968 bytes); the readers and the error text add 8, 14 in all.
	if allocs := testing.AllocsPerRun(10, func() { read() }); allocs > 20 {
		t.Errorf("ReadOne made %v allocations, want at most 20", allocs)
	}
}
