// Command conformal measures the coverage of gcp's conformal intervals
// (Model.ConformalInterval) on exchangeable synthetic data, the issue's
// target: mean coverage at least level − 0.01 at 80, 90 and 95%, for clean
// data and for data with outliers, where new data is drawn as the
// training data was.
//
// The data are the paper's Sec. 6.3 set (internal/synth.SinOutliers):
// x ~ U(−1, 1), y ~ N(sin 3x, (0.5·cos⁴x)²), each target replaced with
// probability p by a draw from U(−4, 16): p = 0 for "clean", 0.05 for
// "outliers". One run trains a model with gcp train's defaults (AutoFit,
// an ensemble of five float64 networks) on -train rows drawn from -seed,
// then draws -sets test sets of -n rows each from the same distribution,
// with seeds of their own, and writes one JSON line: for each level the
// coverage of each test set by the conformal, the calibrated and the
// Student-t intervals, and their mean widths.
//
// Why many test sets per training: the conformal guarantee is marginal,
// over the draw of the calibration rows and of the new row. Given the
// training draw, a model's coverage is a fixed number, which varies from
// draw to draw with a standard deviation of about √(level(1−level)/n) for
// n calibration rows (0.013 at 90% for 500 rows); the test sets only
// measure it. So the expensive part, training, needs only enough draws to
// average that variation down (20 trainings: a standard error of 0.003),
// while the test sets, cheap to draw and predict, make each training's
// coverage precise (50 sets of 200 rows: 10,000 rows, a standard error of
// 0.003). -summarize FILE reads the lines of such runs and prints, per
// scenario and level, the mean coverage over all their test sets with the
// standard error over the trainings.
//
// Usage:
//
//	go run ./bench/conformal -scenario clean -seed 1 >> bench/conformal_results.jsonl
//	go run ./bench/conformal -summarize bench/conformal_results.jsonl
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"sort"
	"time"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/internal/synth"
)

// levels are the interval levels measured.
var levels = []float64{0.8, 0.9, 0.95}

// run is one training's line of results.
type run struct {
	Scenario string  `json:"scenario"`
	Seed     uint64  `json:"seed"`
	Train    int     `json:"train_rows"`
	CVRows   int     `json:"conformal_rows"`
	Seconds  float64 `json:"seconds"`
	// Coverage[kind][level] is the coverage of each test set, kind one of
	// conformal, calibrated, student_t; Width[kind][level] the mean width
	// over all test rows.
	Coverage map[string]map[string][]float64 `json:"coverage"`
	Width    map[string]map[string]float64   `json:"width"`
}

func main() {
	scenario := flag.String("scenario", "clean", "clean, or outliers (5% of targets, in training and test data alike)")
	seed := flag.Uint64("seed", 1, "seed of the training data and the model; the test sets use seeds of their own")
	trainRows := flag.Int("train", 500, "training rows")
	sets := flag.Int("sets", 50, "test sets")
	n := flag.Int("n", 200, "rows per test set")
	summarize := flag.String("summarize", "", "summarize the JSON lines of this file instead of running")
	flag.Parse()
	if *summarize != "" {
		if err := summary(*summarize); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	p := map[string]float64{"clean": 0, "outliers": 0.05}[*scenario]
	if *scenario != "clean" && *scenario != "outliers" {
		fmt.Fprintln(os.Stderr, "-scenario: want clean or outliers")
		os.Exit(2)
	}
	start := time.Now()
	x32, y32, _ := synth.SinOutliers(*seed, *trainRows, p, synth.Everywhere)
	x, y := widen(x32), widen(y32)
	m, res, err := gcp.AutoFit(gcp.Config{Inputs: 1, Seed: *seed, Members: 5}, gcp.TrainConfig{Seed: *seed}, x, y, gcp.AutoOptions{Seed: *seed})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	r := run{Scenario: *scenario, Seed: *seed, Train: *trainRows, CVRows: res.CVRows,
		Coverage: map[string]map[string][]float64{}, Width: map[string]map[string]float64{}}
	intervals := map[string]func(gcp.Prediction, float64) (float64, float64, error){
		"conformal":  m.ConformalInterval,
		"calibrated": gcp.Prediction.CalibratedInterval,
		"student_t":  gcp.Prediction.Interval,
	}
	for kind := range intervals {
		r.Coverage[kind], r.Width[kind] = map[string][]float64{}, map[string]float64{}
	}
	ws := m.NewWorkspace()
	preds := make([]gcp.Prediction, *n)
	for s := range *sets {
		// Test seeds far from any training seed's.
		tx32, ty32, _ := synth.SinOutliers(1<<40+*seed<<20+uint64(s), *n, p, synth.Everywhere)
		tx, ty := widen(tx32), widen(ty32)
		if err := m.PredictBatch(ws, tx, preds); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		for kind, interval := range intervals {
			for _, level := range levels {
				key := fmt.Sprint(level)
				in := 0
				for i, p := range preds {
					lo, hi, err := interval(p, level)
					if err != nil {
						fmt.Fprintln(os.Stderr, err)
						os.Exit(1)
					}
					if lo <= ty[i] && ty[i] <= hi {
						in++
					}
					r.Width[kind][key] += (hi - lo) / float64(*n**sets)
				}
				r.Coverage[kind][key] = append(r.Coverage[kind][key], float64(in)/float64(*n))
			}
		}
	}
	r.Seconds = math.Round(time.Since(start).Seconds()*10) / 10
	b, _ := json.Marshal(r)
	fmt.Println(string(b))
}

// widen converts float32 values to float64.
func widen(v []float32) []float64 {
	out := make([]float64, len(v))
	for i, f := range v {
		out[i] = float64(f)
	}
	return out
}

// summary prints, per scenario, kind and level, the mean coverage over
// every test set of the runs in path, the standard error of that mean
// over the runs (the trainings), and the mean width.
func summary(path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	runs := map[string][]run{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var r run
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return err
		}
		runs[r.Scenario] = append(runs[r.Scenario], r)
	}
	if err := sc.Err(); err != nil {
		return err
	}
	var names []string
	for s := range runs {
		names = append(names, s)
	}
	sort.Strings(names)
	fmt.Printf("%-9s %-10s %5s %9s %9s %7s %8s %8s\n", "scenario", "intervals", "level", "coverage", "se", "target", "width", "sets")
	for _, s := range names {
		for _, kind := range []string{"conformal", "calibrated", "student_t"} {
			for _, level := range levels {
				key := fmt.Sprint(level)
				var means []float64
				var all, width float64
				var count int
				for _, r := range runs[s] {
					var sum float64
					for _, c := range r.Coverage[kind][key] {
						sum += c
					}
					means = append(means, sum/float64(len(r.Coverage[kind][key])))
					all += sum
					count += len(r.Coverage[kind][key])
					width += r.Width[kind][key] / float64(len(runs[s]))
				}
				mean := all / float64(count)
				var ss float64
				for _, m := range means {
					ss += (m - mean) * (m - mean)
				}
				se := math.Sqrt(ss/float64(max(1, len(means)-1))) / math.Sqrt(float64(len(means)))
				verdict := "meets"
				if mean < level-0.01 {
					verdict = "MISSES"
				}
				if kind != "conformal" {
					verdict = ""
				}
				fmt.Printf("%-9s %-10s %5.2f %9.4f %9.4f %7s %8.4g %8d\n", s, kind, level, mean, se, verdict, width, count)
			}
		}
	}
	return nil
}
