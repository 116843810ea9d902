// Package layers checks the layering of the root package's files that
// docs/architecture.md describes: a table of layers, bottom up, each
// naming its files, in which a file refers only to names declared in its
// own layer or in the layers listed before it, and no files refer to each
// other in a cycle. An upward reference the page keeps on purpose is
// listed there with its reason, under a heading of its own.
package layers

import (
	"bufio"
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gcpnet/gcp/internal/srcpkg"
)

// Edge is a reference from one file of the package to another: From uses
// a name that To declares.
type Edge struct{ From, To string }

func (e Edge) String() string { return e.From + " → " + e.To }

// Layer is one row of the page's table: its name and its files.
type Layer struct {
	Name  string
	Files []string
}

// Table is what the page says: the layers bottom up, and the upward
// references it keeps, each with its reason.
type Table struct {
	Layers []Layer
	Kept   map[Edge]string
}

// The headings of the two parts of the page that the check reads.
const (
	tableHeading = "## The layers, bottom up"
	keptHeading  = "## Upward references kept"
)

var (
	goFile   = regexp.MustCompile("`([A-Za-z0-9_]+\\.go)`")
	keptLine = regexp.MustCompile("^- `([A-Za-z0-9_]+\\.go)` → `([A-Za-z0-9_]+\\.go)`(.*)$")
)

// ParseDoc reads the table of layers and the list of kept upward
// references from the page's Markdown. A row names a root file as a
// backquoted base name ending in .go; rows without one (the packages
// outside the root) are not layers of the root package. A file listed in
// two layers is an error.
func ParseDoc(doc []byte) (*Table, error) {
	t := &Table{Kept: map[Edge]string{}}
	section := ""
	seen := map[string]string{}
	sc := bufio.NewScanner(bytes.NewReader(doc))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "## ") {
			section = line
			continue
		}
		switch section {
		case tableHeading:
			cells := strings.Split(line, "|")
			if len(cells) < 4 || strings.HasPrefix(strings.TrimSpace(cells[1]), "---") {
				continue
			}
			l := Layer{Name: strings.TrimSpace(cells[1])}
			for _, m := range goFile.FindAllStringSubmatch(cells[3], -1) {
				if prev, ok := seen[m[1]]; ok {
					return nil, fmt.Errorf("%s is listed in two layers: %q and %q", m[1], prev, l.Name)
				}
				seen[m[1]] = l.Name
				l.Files = append(l.Files, m[1])
			}
			if len(l.Files) > 0 {
				t.Layers = append(t.Layers, l)
			}
		case keptHeading:
			if m := keptLine.FindStringSubmatch(line); m != nil {
				t.Kept[Edge{m[1], m[2]}] = strings.TrimSpace(m[3])
			}
		}
	}
	if len(t.Layers) == 0 {
		return nil, fmt.Errorf("no table of layers under %q", tableHeading)
	}
	return t, nil
}

// layerOf maps each file to the index of its layer, and rank to its place
// in the table, counted over all layers.
func (t *Table) layerOf() (layer, rank map[string]int) {
	layer, rank = map[string]int{}, map[string]int{}
	for i, l := range t.Layers {
		for _, f := range l.Files {
			layer[f] = i
			rank[f] = len(rank)
		}
	}
	return layer, rank
}

// References is the package's file-to-file reference graph: for each
// pair of distinct files, the names one uses that the other declares
// (package-level names, methods and fields alike), sorted.
func References(p *srcpkg.Package) map[Edge][]string {
	names := map[Edge]map[string]bool{}
	for ident, obj := range p.Info.Uses {
		to := p.FileOf(obj)
		from := p.FileAt(ident.Pos())
		if to == "" || from == "" || to == from {
			continue
		}
		e := Edge{from, to}
		if names[e] == nil {
			names[e] = map[string]bool{}
		}
		names[e][obj.Name()] = true
	}
	refs := map[Edge][]string{}
	for e, set := range names {
		for n := range set {
			refs[e] = append(refs[e], n)
		}
		sort.Strings(refs[e])
	}
	return refs
}

// Report is what Check measured.
type Report struct {
	Edges    int        // file-to-file references (pairs of files)
	Upward   []Edge     // references to a file of a later layer, kept or not
	Pairs    int        // pairs of layers with an upward reference between them
	Cycles   [][]string // the strongly connected sets of two files or more
	Problems []string   // what fails the check
}

// Check compares the package with the page: every non-test file of the
// package in one layer, every upward reference kept on purpose (and every
// kept one still there), within a layer every reference to a file listed
// before the file that makes it, and no cycle between files. A kept upward
// reference still counts in the cycles: keeping it says why a file
// reaches up, not that two files may lean on each other.
func Check(t *Table, p *srcpkg.Package, refs map[Edge][]string) Report {
	var r Report
	layer, rank := t.layerOf()
	for _, name := range p.Names {
		if _, ok := layer[name]; !ok {
			r.Problems = append(r.Problems, fmt.Sprintf("%s is in no layer of the table", name))
		}
	}
	pairs := map[[2]int]bool{}
	for e, names := range refs {
		r.Edges++
		lf, okf := layer[e.From]
		lt, okt := layer[e.To]
		if !okf || !okt {
			continue
		}
		if lt == lf && rank[e.To] > rank[e.From] {
			r.Problems = append(r.Problems, fmt.Sprintf("%s refers to %s (%s), listed after it in %q: list %s first",
				e.From, e.To, strings.Join(names, ", "), t.Layers[lf].Name, e.To))
		}
		if lt <= lf {
			continue
		}
		r.Upward = append(r.Upward, e)
		pairs[[2]int{lf, lt}] = true
		if _, ok := t.Kept[e]; !ok {
			r.Problems = append(r.Problems, fmt.Sprintf("upward reference %s (%s: %q uses %s of %q)",
				e, strings.Join(names, ", "), t.Layers[lf].Name, plural(names), t.Layers[lt].Name))
		}
	}
	r.Pairs = len(pairs)
	for e := range t.Kept {
		lf, lt := layer[e.From], layer[e.To]
		if _, ok := refs[e]; !ok || lt <= lf {
			r.Problems = append(r.Problems, fmt.Sprintf("kept upward reference %s is no longer an upward reference: drop it from the page", e))
		}
	}
	r.Cycles = cycles(refs)
	for _, c := range r.Cycles {
		r.Problems = append(r.Problems, fmt.Sprintf("cycle between %d files: %s", len(c), strings.Join(c, ", ")))
	}
	sort.Slice(r.Upward, func(i, j int) bool { return r.Upward[i].String() < r.Upward[j].String() })
	sort.Strings(r.Problems)
	return r
}

func plural(names []string) string {
	if len(names) == 1 {
		return "a name"
	}
	return "names"
}

// cycles returns the strongly connected components of two files or more
// (Tarjan's algorithm), each sorted, largest first.
func cycles(refs map[Edge][]string) [][]string {
	succ := map[string][]string{}
	var nodes []string
	seen := map[string]bool{}
	for e := range refs {
		succ[e.From] = append(succ[e.From], e.To)
		for _, n := range []string{e.From, e.To} {
			if !seen[n] {
				seen[n] = true
				nodes = append(nodes, n)
			}
		}
	}
	sort.Strings(nodes)
	index := map[string]int{}
	low := map[string]int{}
	onStack := map[string]bool{}
	var stack []string
	var out [][]string
	var visit func(v string)
	visit = func(v string) {
		index[v] = len(index)
		low[v] = index[v]
		stack = append(stack, v)
		onStack[v] = true
		for _, w := range succ[v] {
			if _, ok := index[w]; !ok {
				visit(w)
				low[v] = min(low[v], low[w])
			} else if onStack[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] != index[v] {
			return
		}
		var comp []string
		for {
			w := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			onStack[w] = false
			comp = append(comp, w)
			if w == v {
				break
			}
		}
		if len(comp) > 1 {
			sort.Strings(comp)
			out = append(out, comp)
		}
	}
	for _, v := range nodes {
		if _, ok := index[v]; !ok {
			visit(v)
		}
	}
	sort.Slice(out, func(i, j int) bool {
		if len(out[i]) != len(out[j]) {
			return len(out[i]) > len(out[j])
		}
		return out[i][0] < out[j][0]
	})
	return out
}
