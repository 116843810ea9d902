// Command conditional measures, on a Mulan multi-target set's 20 outer
// splits (data/multi, the splits of bench/multi_benchmark.py), what the
// Gaussian copula law's MultiPrediction.Conditional gives: for each test
// row and each target j, the conditional of j given every other target at
// its observed value, against j's unconditional marginal. It trains one
// copula model a split with AutoFit in float32, with no option but
// AutoOptions.Laws = copula, on the split's training rows and prints,
// per target, the share of test rows inside the conditional's and the
// marginal's 95% intervals (Interval and CalibratedInterval), their mean
// negative log densities and the RMSE of their means.
//
// Usage, from the repository root:
//
//	GOMAXPROCS=1 go run ./bench/conditional SET TARGETS
//
// where SET names data/multi/SET.csv, whose last TARGETS columns are the
// targets (slump 3, jura 3).
package main

import (
	"bufio"
	"encoding/csv"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp"
)

func main() {
	name, d := os.Args[1], atoi(os.Args[2])
	rows := readCSV("data/multi/" + name + ".csv")
	splits := readSplits("data/multi/splits/" + name + "_test_idx.txt")
	nf := len(rows[0]) - d
	type acc struct{ n, covG, covGc, covM, covMc, nllG, nllM, seG, seM float64 }
	tot := make([]acc, d)
	for s, test := range splits {
		isTest := map[int]bool{}
		for _, i := range test {
			isTest[i] = true
		}
		var x, y []float32
		for i, r := range rows {
			if isTest[i] {
				continue
			}
			for _, v := range r[:nf] {
				x = append(x, float32(v))
			}
			for _, v := range r[nf:] {
				y = append(y, float32(v))
			}
		}
		m, _, err := gcp.AutoFit(gcp.Config{Inputs: nf, Targets: d}, gcp.TrainConfig{}, x, y, gcp.AutoOptions{Laws: []gcp.JointLaw{gcp.LawCopula}})
		if err != nil {
			fmt.Fprintln(os.Stderr, "split", s, err)
			os.Exit(1)
		}
		ws := m.NewWorkspace()
		var p, c gcp.MultiPrediction
		xi := make([]float32, nf)
		for _, i := range test {
			for k := range xi {
				xi[k] = float32(rows[i][k])
			}
			if err := m.PredictMulti(ws, xi, &p); err != nil {
				panic(err)
			}
			yt := rows[i][nf:]
			for j := range d {
				given, vals := []int{}, []float64{}
				for k := range d {
					if k != j {
						given, vals = append(given, k), append(vals, yt[k])
					}
				}
				if err := p.Conditional(&c, given, vals); err != nil {
					fmt.Fprintln(os.Stderr, "split", s, "row", i, "target", j, err)
					os.Exit(1)
				}
				g, u := c.Marginal(0), p.Marginal(j)
				a := &tot[j]
				a.n++
				a.covG += in(g.Interval(0.95))(yt[j])
				a.covGc += in(g.CalibratedInterval(0.95))(yt[j])
				a.covM += in(u.Interval(0.95))(yt[j])
				a.covMc += in(u.CalibratedInterval(0.95))(yt[j])
				a.nllG -= g.LogPDF(yt[j])
				a.nllM -= u.LogPDF(yt[j])
				a.seG += (g.Mean - yt[j]) * (g.Mean - yt[j])
				a.seM += (u.Mean - yt[j]) * (u.Mean - yt[j])
			}
		}
	}
	fmt.Printf("%s: %d splits, each target given all the others (copula law)\n", name, len(splits))
	fmt.Println("target\trows\tcov95 G\tcov95 G cal\tcov95 alone\tcov95 alone cal\tNLL G\tNLL alone\tRMSE G\tRMSE alone")
	for j, a := range tot {
		fmt.Printf("%d\t%.0f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.3f\t%.4g\t%.4g\n", j, a.n, a.covG/a.n, a.covGc/a.n, a.covM/a.n, a.covMc/a.n, a.nllG/a.n, a.nllM/a.n, math.Sqrt(a.seG/a.n), math.Sqrt(a.seM/a.n))
	}
}

func in(lo, hi float64, err error) func(float64) float64 {
	return func(y float64) float64 {
		if err == nil && y >= lo && y <= hi {
			return 1
		}
		return 0
	}
}

func atoi(s string) int {
	v, err := strconv.Atoi(s)
	if err != nil {
		panic(err)
	}
	return v
}

func readCSV(path string) [][]float64 {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		panic(err)
	}
	var out [][]float64
	for _, r := range recs[1:] {
		v := make([]float64, len(r))
		for i, s := range r {
			v[i], err = strconv.ParseFloat(s, 64)
			if err != nil {
				panic(err)
			}
		}
		out = append(out, v)
	}
	return out
}

func readSplits(path string) [][]int {
	f, err := os.Open(path)
	if err != nil {
		panic(err)
	}
	defer f.Close()
	var out [][]int
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var t []int
		for _, s := range strings.Split(strings.TrimSpace(sc.Text()), ",") {
			t = append(t, atoi(s))
		}
		out = append(out, t)
	}
	return out
}
