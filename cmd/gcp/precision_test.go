package main

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gcpnet/gcp/internal/isodate"
	"github.com/gcpnet/gcp/table"
)

// precisionCSV returns n rows of a feature a, the column special(i, r)
// named name, and a target y = a + noise; with name "y" the special
// column is the target.
func precisionCSV(n int, name string, special func(i int, r *rand.Rand) string) string {
	r := rand.New(rand.NewPCG(5, 9))
	var b strings.Builder
	if name == "y" {
		b.WriteString("a,y\n")
	} else {
		fmt.Fprintf(&b, "a,%s,y\n", name)
	}
	for i := range n {
		a := r.NormFloat64()
		if name == "y" {
			fmt.Fprintf(&b, "%g,%s\n", a, special(i, r))
		} else {
			fmt.Fprintf(&b, "%g,%s,%g\n", a, special(i, r), a+0.1*r.NormFloat64())
		}
	}
	return b.String()
}

// precisionOf returns what gcp train decides on csv with the given
// precision flag ("", "-float32" or "-float64"), one target or several.
func precisionOf(t *testing.T, csv, flag string, targets []string) (f32 bool, note string, err error) {
	t.Helper()
	tab, err := table.Read(strings.NewReader(csv), "t.csv", table.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	var td trainingData
	if targets != nil {
		td, err = prepareMultiTraining(tab, targets, nil)
	} else {
		td, err = prepareTraining(tab, "", nil, "none")
	}
	if err != nil {
		t.Fatal(err)
	}
	f32flag, f64flag := flag == "-float32", flag == "-float64"
	return (&recipeFlags{f32: &f32flag, f64: &f64flag}).precision(td)
}

// TestPrecisionGuard checks which columns make the default train in
// float64, against float32's spacing worked by hand: 2⁻²³·2^⌊log₂|v|⌋, so
// 128 at 1.7e9 (2³⁰ ≤ v < 2³¹), 0.0625 at 1e6, 2⁻⁹ days at 19800 days;
// every integer below 2²⁴ and 0/1 exact. Each fallback's rounding (half
// the spacing) exceeds 1e-4 of the column's scale; each pass has none, or
// a constant column.
func TestPrecisionGuard(t *testing.T) {
	day := 86400
	for _, tc := range []struct {
		name, column string
		special      func(i int, r *rand.Rand) string
		targets      []string
		flag         string
		f32          bool
		note, err    string
	}{
		{name: "plain numbers", column: "b", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(r.NormFloat64()) },
			f32: true, note: "trained in float32 (the default; -float64 for double precision)"},
		// Every 864 s over two days: rounding up to 64 s (864 is 96 mod
		// 128, so some row lies halfway between float32's neighbours)
		// against a scale of about 0.74 day (IQR 1 day over 1.349).
		{name: "Unix timestamps 1.7e9 ± 1 day", column: "ts", special: func(i int, _ *rand.Rand) string { return fmt.Sprint(1_700_000_000 - day + 864*i) },
			note: "trained in float64: column ts (values near 1.7e+09) varies by 6.4e+04, finer than float32's rounding of up to 64 resolves"},
		// Rounding up to 0.03125 against a scale of about 0.37.
		{name: "1e6 plus thousandths", column: "m", special: func(i int, _ *rand.Rand) string { return fmt.Sprintf("%d.%03d", 1_000_000, i*7%1000) },
			note: "trained in float64: column m (values near 1e+06)"},
		// Exact in float32: nothing to round.
		{name: "1e6 plus small integers", column: "m", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(1_000_000 + r.IntN(10)) }, f32: true},
		{name: "constant 1.7e9 + 0.3", column: "c", special: func(int, *rand.Rand) string { return "1700000000.3" }, f32: true},
		{name: "a timestamp target", column: "y", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(1_700_000_000 + r.IntN(day)) },
			note: "trained in float64: column y (values near 1.7e+09)"},
		{name: "timestamps among several targets", column: "ts", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(1_700_000_000 + r.IntN(day)) },
			targets: []string{"ts", "y"}, note: "trained in float64: column ts (values near 1.7e+09)"},
		// Date-times within one day: days near 19800, rounded by up to
		// 2⁻¹⁰ day against a scale of about a third of a day.
		{name: "date-times within a day", column: "when", special: func(i int, _ *rand.Rand) string {
			return isodate.Format(19800) + fmt.Sprintf("T%02d:%02d:00Z", i%24, i%60)
		}, note: "trained in float64: column when (values near 2e+04)"},
		// Whole days are integers: exact.
		{name: "dates", column: "when", special: func(i int, _ *rand.Rand) string { return isodate.Format(float64(19800 + i%30)) }, f32: true},
		{name: "text", column: "kind", special: func(i int, _ *rand.Rand) string { return []string{"x", "y", "z"}[i%3] }, f32: true},
		{name: "a value beyond float32", column: "big", special: func(i int, _ *rand.Rand) string { return fmt.Sprint(1e39 * float64(i%2)) },
			note: "trained in float64: column big holds 1e+39 (line 3), beyond float32's range"},
		// 2¹²⁷ is a float32, but 2¹²⁷ over a scale of about 0.03 is not.
		{name: "beyond float32 once standardized", column: "far", special: func(i int, _ *rand.Rand) string {
			if i == 7 {
				return fmt.Sprint(0x1p127)
			}
			return fmt.Sprint(0.01 * float64(i%10))
		}, note: "trained in float64: column far spans 0 to 1.7e+38, beyond float32's range once standardized"},
		{name: "below float32's normals", column: "tiny", special: func(i int, _ *rand.Rand) string { return fmt.Sprint(1e-40 * float64(i%5)) },
			note: "trained in float64: column tiny's values, at most 4e-40 in magnitude, lie below float32's smallest normal number"},
		// Explicit flags win: -float32 keeps float32 and says why it
		// should not, but refuses what float32 cannot hold.
		{name: "-float64", column: "b", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(r.NormFloat64()) },
			flag: "-float64", note: "trained in float64 (-float64)"},
		{name: "-float32 on timestamps", column: "ts", special: func(_ int, r *rand.Rand) string { return fmt.Sprint(1_700_000_000 + r.IntN(day)) },
			flag: "-float32", f32: true, note: "trained in float32 (-float32), though column ts (values near 1.7e+09)"},
		{name: "-float32 beyond float32", column: "big", special: func(i int, _ *rand.Rand) string { return fmt.Sprint(1e39 * float64(i%2)) },
			flag: "-float32", err: "t.csv: line 3, column 2 (big): 1e+39 overflows float32; train with -float64"},
		{name: "-float32 below normals", column: "tiny", special: func(i int, _ *rand.Rand) string { return fmt.Sprint(1e-40 * float64(i%5)) },
			flag: "-float32", err: "t.csv: column 2 (tiny): its largest magnitude 4e-40 is below float32's smallest normal number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f32, note, err := precisionOf(t, precisionCSV(200, tc.column, tc.special), tc.flag, tc.targets)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil || f32 != tc.f32 || !strings.HasPrefix(note, tc.note) || strings.Contains(note, "\n") {
				t.Errorf("float32 %v, note %q, error %v; want float32 %v and a line starting %q", f32, note, err, tc.f32, tc.note)
			}
		})
	}
}

// TestTrainPrecision: gcp train saves a float32 model by default and says
// so; a column of Unix timestamps makes it float64, named in the summary;
// -float64 and -float32 win over the guard. The element size at offset 10
// of the saved header (4 or 8 bytes, the model format's) tells the
// precision.
// regression: float64 was the default.
func TestTrainPrecision(t *testing.T) {
	dir := t.TempDir()
	plain := filepath.Join(dir, "plain.csv")
	stamps := filepath.Join(dir, "stamps.csv")
	normal := func(_ int, r *rand.Rand) string { return fmt.Sprint(r.NormFloat64()) }
	stamp := func(i int, _ *rand.Rand) string { return fmt.Sprint(1_700_000_000 + 864*i) }
	for file, csv := range map[string]string{plain: precisionCSV(60, "b", normal), stamps: precisionCSV(60, "ts", stamp)} {
		if err := os.WriteFile(file, []byte(csv), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name, data, flag string
		size             byte
		line             string
	}{
		{"default", plain, "", 4, "trained in float32 (the default; -float64 for double precision)\n"},
		{"timestamps", stamps, "", 8, "trained in float64: column ts (values near 1.7e+09) varies by"},
		{"-float64", plain, "-float64", 8, "trained in float64 (-float64)\n"},
		{"-float32 on timestamps", stamps, "-float32", 4, "trained in float32 (-float32), though column ts"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			model := filepath.Join(dir, tc.name+".gcpm")
			args := []string{"train", "-data", tc.data, "-o", model, "-validation", "0", "-epochs", "2", "-hidden", "4", "-members", "1"}
			if tc.flag != "" {
				args = append(args, tc.flag)
			}
			_, stderr, err := gcpRun(args...)
			if err != nil || !strings.Contains(stderr, "\n"+tc.line) {
				t.Fatalf("train %s: %v; the summary does not say %q:\n%s", tc.flag, err, tc.line, stderr)
			}
			if b, err := os.ReadFile(model); err != nil || len(b) <= 10 || b[10] != tc.size {
				t.Errorf("saved model: element size %v, want %d (%v)", b[min(10, len(b)-1)], tc.size, err)
			}
		})
	}
}

// TestUCISetsTrainInFloat32 checks that the guard passes the five UCI sets
// of data/uci, whose tables bench/uci_results.jsonl records trained in
// float32.
func TestUCISetsTrainInFloat32(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "data", "uci", "*.csv"))
	if err != nil || len(files) != 5 {
		t.Fatalf("data/uci: %d sets (%v), want 5", len(files), err)
	}
	for _, file := range files {
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if f32, note, err := precisionOf(t, string(b), "", nil); !f32 || err != nil {
			t.Errorf("%s: %s (%v), want the default float32", file, note, err)
		}
	}
}

// TestPrecisionNotes: gcp splits says why the first split trained in its
// precision, and again only where a split's precision differs from the
// one before's, not where a reason's figures do.
func TestPrecisionNotes(t *testing.T) {
	var b strings.Builder
	notes := precisionNotes{w: &b}
	for i, s := range [][2]string{{"float64", "ts 6.4e+04"}, {"float64", "ts 5.7e+04"}, {"float32", "default"}, {"float32", "default"}, {"float64", "ts 6e+04"}} {
		notes.add(i, s[0], s[1])
	}
	if want := "split 0 ts 6.4e+04\nsplit 2 default\nsplit 4 ts 6e+04\n"; b.String() != want {
		t.Errorf("notes %q, want %q", b.String(), want)
	}
}
