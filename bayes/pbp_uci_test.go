package bayes

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gcpnet/gcp/table"
)

// uciDir holds the benchmark data and its standard splits.
const uciDir = "../data/uci"

// TestPBPUCIBenchmark runs the PBP paper's protocol on the standard UCI
// splits (one hidden layer of 50 units, 40 epochs, every one of the 20
// splits, split i trained with Seed i) and prints test RMSE and NLL in
// original units, mean ± standard error over the splits, beside the
// published PBP figures of bench/uci_published.json and the wall time of
// the 20 splits. It reports and asserts nothing: set GCP_PBP_UCI=1 to run
// it, with -v to see the table.
func TestPBPUCIBenchmark(t *testing.T) {
	if os.Getenv("GCP_PBP_UCI") != "1" {
		t.Skip("set GCP_PBP_UCI=1 to run the UCI benchmark")
	}
	pub := readPublished(t)
	t.Logf("%-9s %-24s %-11s %-24s %-11s %8s", "data", "RMSE", "published", "NLL", "published", "seconds")
	for _, name := range []string{"boston", "concrete", "kin8nm", "power", "yacht"} {
		x, y, d := readUCI(t, name)
		splits := readSplits(t, name)
		var rmse, nll []float64
		start := time.Now()
		for i, test := range splits {
			r, n := runUCISplit(t, x, y, d, test, uint64(i))
			rmse, nll = append(rmse, r), append(nll, n)
		}
		secs := time.Since(start).Seconds()
		rm, rs := meanSE(rmse)
		nm, ns := meanSE(nll)
		p := pub[name]
		t.Logf("%-9s %-24s %-11s %-24s %-11s %8.1f", name,
			agreement(rm, rs, p.RMSE.Mean, p.RMSE.PM), fmt.Sprintf("%.2f±%.2f", p.RMSE.Mean, p.RMSE.PM),
			agreement(nm, ns, p.NLL.Mean, p.NLL.PM), fmt.Sprintf("%.2f±%.2f", p.NLL.Mean, p.NLL.PM), secs)
	}
	t.Log("(z) = (ours − published)/√(SE_ours² + SE_published²), the difference in its own standard errors;")
	t.Log("* marks agreement: |z| ≤ 2, or ours rounds to the published two decimals (whose ± may round to 0.00)")
}

// agreement formats our mean ± standard error, its difference from the
// published figure in standard errors of the difference, and a * where
// the two agree (see the legend TestPBPUCIBenchmark prints).
func agreement(mean, se, pub, pubSE float64) string {
	z := (mean - pub) / math.Hypot(se, pubSE)
	mark := " "
	if math.Abs(z) <= 2 || math.Round(mean*100) == math.Round(pub*100) {
		mark = "*"
	}
	return fmt.Sprintf("%.3f±%.3f (%+.1f)%s", mean, se, z, mark)
}

// runUCISplit trains on the rows not in test and returns the test RMSE
// and mean negative log predictive density, in original units.
func runUCISplit(t *testing.T, x, y []float64, d int, test []int, seed uint64) (rmse, nll float64) {
	in := make([]bool, len(y))
	for _, i := range test {
		in[i] = true
	}
	var tx, ty []float64
	for i := range y {
		if !in[i] {
			tx, ty = append(tx, x[i*d:(i+1)*d]...), append(ty, y[i])
		}
	}
	m, err := FitPBP(PBPConfig{Inputs: d, Hidden: []int{50}, Epochs: 40, Seed: seed, Standardization: MeanSD}, tx, ty)
	if err != nil {
		t.Fatal(err)
	}
	ws := m.NewWorkspace()
	for _, i := range test {
		p, err := m.Predict(ws, x[i*d:(i+1)*d])
		if err != nil {
			t.Fatal(err)
		}
		e := y[i] - p.Mean
		rmse += e * e
		nll -= p.LogPDF(y[i])
	}
	return math.Sqrt(rmse / float64(len(test))), nll / float64(len(test))
}

// meanSE returns the mean of v and its standard error, the sample
// standard deviation over √len(v).
func meanSE(v []float64) (mean, se float64) {
	for _, x := range v {
		mean += x
	}
	mean /= float64(len(v))
	var ss float64
	for _, x := range v {
		ss += (x - mean) * (x - mean)
	}
	return mean, math.Sqrt(ss / float64(len(v)-1) / float64(len(v)))
}

// readUCI reads data/uci/name.csv: its features row-major, its targets
// and the number of features.
func readUCI(t *testing.T, name string) (x, y []float64, d int) {
	tab, err := table.ReadFile(filepath.Join(uciDir, name+".csv"), table.Dialect{})
	if err != nil {
		t.Fatal(err)
	}
	x, y, err = tab.Split("")
	if err != nil {
		t.Fatal(err)
	}
	return x, y, len(tab.Header) - 1
}

// readSplits reads data/uci/splits/name_test_idx.txt: one test split a
// line, its 0-based row numbers separated by commas.
func readSplits(t *testing.T, name string) [][]int {
	b, err := os.ReadFile(filepath.Join(uciDir, "splits", name+"_test_idx.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var out [][]int
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var test []int
		for _, f := range strings.Split(line, ",") {
			i, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil {
				t.Fatal(err)
			}
			test = append(test, i)
		}
		out = append(out, test)
	}
	return out
}

// published is one method's figures for one data set in
// bench/uci_published.json.
type published struct {
	RMSE, NLL struct{ Mean, PM float64 }
}

// readPublished returns the published PBP figures by data set.
func readPublished(t *testing.T) map[string]published {
	b, err := os.ReadFile("../bench/uci_published.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Methods map[string]struct {
			Values map[string]published
		}
	}
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	return doc.Methods["pbp"].Values
}
