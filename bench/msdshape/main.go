// Command msdshape writes a synthetic data set of the Year Prediction MSD
// data set's shape (515,345 rows × 90 features by default; synth.Wide) as
// CSV, to measure how gcp train scales in time and memory:
//
//	go run ./bench/msdshape -o msd.csv
//	/usr/bin/time -v go run ./cmd/gcp train -data msd.csv -o msd.gcpm
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"strconv"

	"github.com/gcpnet/gcp/internal/synth"
)

func main() {
	n := flag.Int("n", 515345, "rows")
	d := flag.Int("d", 90, "features, at least 12")
	seed := flag.Uint64("seed", 1, "seed of the draw")
	out := flag.String("o", "", "CSV file to write (required; an existing file is not replaced)")
	flag.Parse()
	if *out == "" || *d < 12 || *n < 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := write(*out, *n, *d, *seed); err != nil {
		log.Fatal(err)
	}
}

// write draws the rows and writes them, with a header line, to a new
// file at path.
func write(path string, n, d int, seed uint64) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	for j := range d {
		fmt.Fprintf(w, "x%d,", j+1)
	}
	fmt.Fprintln(w, "year")
	x, y := synth.Wide(seed, n, d)
	var buf []byte
	for i := range y {
		buf = buf[:0]
		for _, v := range x[i*d : (i+1)*d] {
			buf = strconv.AppendFloat(buf, float64(v), 'g', -1, 32)
			buf = append(buf, ',')
		}
		buf = strconv.AppendFloat(buf, float64(y[i]), 'g', -1, 32)
		buf = append(buf, '\n')
		if _, err := w.Write(buf); err != nil {
			f.Close()
			return err
		}
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
