package table

import (
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/gcpnet/gcp"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// TestReadText checks that a column named as text is held as the file
// writes it, numbers and all.
func TestReadText(t *testing.T) {
	tab, err := Read(strings.NewReader("id,zip,y\n007,1.50,1\n8,2,2\n"), "f.csv", Dialect{}, "zip", "id", "absent")
	if err != nil {
		t.Fatal(err)
	}
	want := []gcp.TableColumn{text("007", "8"), text("1.50", "2"), nums(1, 2)}
	if d := cmp.Diff(want, tab.Columns); d != "" {
		t.Errorf("columns (-want +got):\n%s", d)
	}
	if got := tab.Row(0); !cmp.Equal(got, []string{"007", "1.50", "1"}) {
		t.Errorf("Row(0) = %q", got)
	}
}

// pipe is a reader that cannot seek, as a pipe cannot.
type pipe struct{ r io.Reader }

func (p pipe) Read(b []byte) (int, error) { return p.r.Read(b) }

// TestReadSources checks that a reader that cannot seek, and one that
// starts after the beginning of its data, are read as the same table.
func TestReadSources(t *testing.T) {
	const in = "\uFEFFcity;x;y\n\"Rome\nnorth\";1,5;NA\nOslo;2;3\n"
	want, err := Read(strings.NewReader(in), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Read(pipe{strings.NewReader(in)}, "f.csv", Dialect{})
	if err != nil || !cmp.Equal(of(got), of(want), cmpopts.EquateNaNs()) {
		t.Errorf("from a pipe: %+v, %v; want %+v", got, err, want)
	}
	later := strings.NewReader("skipped\n" + in)
	later.Seek(int64(len("skipped\n")), io.SeekStart)
	if got, err = Read(later, "f.csv", Dialect{}); err != nil || !cmp.Equal(of(got), of(want), cmpopts.EquateNaNs()) {
		t.Errorf("from the middle of a reader: %+v, %v; want %+v", got, err, want)
	}
}

// changing is a file that another program rewrites between the readings:
// each seek to its start serves the next of versions.
type changing struct {
	versions []string
	r        *strings.Reader
}

func (c *changing) Read(b []byte) (int, error) { return c.r.Read(b) }

func (c *changing) Seek(offset int64, whence int) (int64, error) {
	if whence == io.SeekStart {
		c.r, c.versions = strings.NewReader(c.versions[0]), c.versions[1:]
	}
	return c.r.Seek(offset, whence)
}

// TestReadChanged checks that a file whose second reading differs from
// the first is an error naming the line where it does.
func TestReadChanged(t *testing.T) {
	const first = "a,y\n1,2\n3,4\n"
	for _, tc := range []struct {
		name, second string
		line         int
	}{
		{"a number turned text", "a,y\n1,2\n3,x\n", 3},
		{"a row fewer", "a,y\n1,2\n", 3},
		{"a row more", "a,y\n1,2\n3,4\n5,6\n", 3},
		{"a field more", "a,y\n1,2,3\n3,4\n", 2},
		{"the header gone", "", 1},
	} {
		c := &changing{versions: []string{first, tc.second}, r: strings.NewReader("")}
		_, err := Read(c, "f.csv", Dialect{Sep: ','})
		var e *Error
		if !errors.Is(err, ErrChanged) || !errors.As(err, &e) || e.Line != tc.line {
			t.Errorf("%s: %v, want ErrChanged on line %d", tc.name, err, tc.line)
		}
	}
}

// TestReadLines checks the line of every row of a file with blank lines
// and fields with line breaks in it, counted from the text.
func TestReadLines(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	var b strings.Builder
	b.WriteString("a,y\n")
	line := 2
	var want []int
	for i := range 500 {
		for r.IntN(10) == 0 {
			b.WriteString("\n")
			line++
		}
		want = append(want, line)
		if r.IntN(8) == 0 {
			b.WriteString("\"two\nlines\"," + strconv.Itoa(i) + "\n")
			line += 2
		} else {
			b.WriteString("x," + strconv.Itoa(i) + "\n")
			line++
		}
	}
	tab, err := Read(strings.NewReader(b.String()), "f.csv", Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, of(tab).Lines); d != "" {
		t.Errorf("lines (-want +got):\n%s", d)
	}
}

// TestReadFileNotFile checks that a character device and a directory
// are refused before anything is read from them.
// regression: issue 32's H4 (gcp train -data /dev/zero).
func TestReadFileNotFile(t *testing.T) {
	paths := []string{t.TempDir()}
	if _, err := os.Stat(os.DevNull); err == nil {
		paths = append(paths, os.DevNull)
	}
	for _, p := range paths {
		if _, err := ReadFile(p, Dialect{}); !errors.Is(err, ErrNotFile) || !strings.HasPrefix(err.Error(), p+": ") {
			t.Errorf("ReadFile(%q) = %v, want ErrNotFile naming it", p, err)
		}
	}
}
