// Command house writes a house-price-like table to standard output, the
// stand-in for the 3,000-row table of issue 33 (which is not public):
// four numeric columns with 4% missing cells, five text columns of 30,
// 200, 4, 5 and 6 levels (Zipf-distributed where many), an ISO sale
// date, and a log-linear price with 15% noise. Zero-flag gcp train on
// its 3,000 rows makes 126 inputs, 117 of them one-hot codes or
// missing-value indicators: the table that measures what text columns
// cost (README, "Where the recipe's time goes").
//
//	go run ./bench/house -n 3000 > house.csv
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"time"

	"github.com/gcpnet/gcp/internal/synth"
)

func main() {
	n := flag.Int("n", 3000, "rows")
	flag.Parse()
	r := rand.New(rand.NewPCG(33, 5))
	pick := func(w []float64) int { return synth.Pick(r, w) }
	zipf := func(k int) []float64 {
		w := make([]float64, k)
		for i := range w {
			w[i] = 1 / float64(i+1)
		}
		return w
	}
	district, street := zipf(30), zipf(200)
	types := []string{"detached", "semi", "terrace", "flat"}
	conds := []string{"poor", "fair", "good", "very good", "excellent"}
	heats := []string{"gas", "oil", "electric", "heat pump", "wood", "none"}
	miss := func(s string) string {
		if r.Float64() < 0.04 {
			return ""
		}
		return s
	}
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	fmt.Fprintln(w, "area,lot,rooms,age,district,street,type,condition,heating,sold,price")
	t0 := time.Date(2015, 1, 1, 0, 0, 0, 0, time.UTC)
	for range *n {
		area := math.Exp(4.5 + 0.35*r.NormFloat64())
		lot := math.Exp(6 + 0.6*r.NormFloat64())
		rooms := 1 + r.IntN(6)
		age := 100 * r.Float64()
		d, s, ty, c, h := pick(district), pick(street), pick([]float64{60, 25, 10, 5}), pick([]float64{5, 20, 40, 25, 10}), pick([]float64{40, 15, 20, 10, 10, 5})
		day := r.IntN(9 * 365)
		sold := t0.AddDate(0, 0, day)
		price := math.Exp(math.Log(area)*1.2+math.Log(lot)/3+0.1*float64(rooms)-age/300+float64(d%5)/10+float64(s%7)/20-float64(ty)/5+float64(c)/8-float64(h%3)/20+float64(day)/3000+0.15*r.NormFloat64()) / 100
		fmt.Fprintf(w, "%s,%s,%s,%s,%s,%s,%s,%s,%s,%s,%.0f\n",
			miss(strconv.FormatFloat(area, 'f', 1, 64)), miss(strconv.FormatFloat(lot, 'f', 0, 64)), miss(strconv.Itoa(rooms)),
			miss(strconv.Itoa(int(age))), miss("d"+strconv.Itoa(d)), "s"+strconv.Itoa(s), types[ty], miss(conds[c]), miss(heats[h]),
			sold.Format("2006-01-02"), price*1000)
	}
}
