package table

import (
	"crypto/sha256"
	"encoding/hex"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// uciDir is the repository's copy of the benchmark data.
const uciDir = "../data/uci"

// checksumLine matches a line of sha256sum output: 64 hex digits, two
// spaces, a path.
var checksumLine = regexp.MustCompile(`(?m)^([0-9a-f]{64})  (\S+)$`)

// TestUCIChecksums checks every data file in data/uci against the
// SHA-256 list in its README, and that the list covers every data file.
func TestUCIChecksums(t *testing.T) {
	readme, err := os.ReadFile(filepath.Join(uciDir, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{}
	for _, m := range checksumLine.FindAllStringSubmatch(string(readme), -1) {
		want[m[2]] = m[1]
	}
	got := map[string]string{}
	err = filepath.WalkDir(uciDir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(uciDir, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == "README.md" || rel == ".gitattributes" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		sum := sha256.Sum256(b)
		got[rel] = hex.EncodeToString(sum[:])
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(want) == 0 {
		t.Fatal("README.md lists no checksums")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("SHA-256 of data/uci differs from README.md (-README +files):\n%s", diff)
	}
}

// TestUCIRead reads every benchmark file and checks the shape its README
// states.
func TestUCIRead(t *testing.T) {
	tests := []struct {
		name       string
		rows, cols int
	}{
		{"boston", 506, 14},
		{"concrete", 1030, 9},
		{"power", 9568, 5},
		{"yacht", 308, 7},
		{"kin8nm", 8192, 9},
	}
	for _, tt := range tests {
		tab, err := ReadFile(filepath.Join(uciDir, tt.name+".csv"), Dialect{})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := tab.Split(""); err != nil {
			t.Error(err)
		}
		if tab.Rows() != tt.rows || len(tab.Header) != tt.cols || tab.Header[tt.cols-1] != "y" || tab.Dialect != (Dialect{Sep: ',', Decimal: '.'}) {
			t.Errorf("%s: %d rows, header %v; want %d rows, %d columns ending in y",
				tt.name, tab.Rows(), tab.Header, tt.rows, tt.cols)
		}
	}
}
