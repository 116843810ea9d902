package srcpkg

import (
	"os/exec"
	"slices"
	"testing"
)

// TestLoadItself type-checks this package from its source: its one
// non-test file, the names it declares, and where each is declared.
func TestLoadItself(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("no go command to list the package")
	}
	p, err := Load(".", ".")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Names, []string{"srcpkg.go"}) || len(p.Files) != 1 {
		t.Fatalf("files %v, want srcpkg.go alone", p.Names)
	}
	if p.Types.Path() != "github.com/gcpnet/gcp/internal/srcpkg" {
		t.Errorf("path %q", p.Types.Path())
	}
	load := p.Types.Scope().Lookup("Load")
	if load == nil || p.FileOf(load) != "srcpkg.go" {
		t.Errorf("Load declared in %q, want srcpkg.go", p.FileOf(load))
	}
	// A name of another package (Uses holds fmt.Errorf, say) has no file
	// of this package.
	for id, obj := range p.Info.Uses {
		if obj.Pkg() != nil && obj.Pkg() != p.Types && p.FileOf(obj) != "" {
			t.Errorf("%s (%s) is given the file %q", id.Name, obj.Pkg().Path(), p.FileOf(obj))
		}
	}
}
