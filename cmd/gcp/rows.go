package main

import (
	"io"
	"os"
	"slices"

	"github.com/gcpnet/gcp"
	"github.com/gcpnet/gcp/table"
)

// stdin is what -data - reads: the standard input, or a test's reader.
var stdin io.Reader = os.Stdin

// stdinName is the name of the standard input in messages.
const stdinName = "stdin"

// chunkRows is how many rows predict and eval read, encode and predict at
// a time: their memory is that of the chunk (a prediction takes about 600
// bytes) whatever the number of rows, and a chunk of a few thousand rows
// amortizes the work per chunk. Tests shrink it to cross chunks' edges
// on small files.
var chunkRows = 4096

// chunk is a run of rows of a data file, encoded and predicted.
type chunk struct {
	tab   *table.Table
	e     encoded
	preds []gcp.Prediction // by a model of one target; nil from eachEncoded
	ids   []string         // the fields of the column taken (-id), if any
}

// eachChunk reads the data file of a (the standard input for "-") once,
// a chunk of at most size rows at a time, and calls each with every
// chunk in order, encoded by m and predicted. The columns are selected
// on the header as selectColumns does (wantTarget requires the target);
// take, unless empty, names a column whose fields the chunks carry as
// they are written (takeColumn). Once every row is read it writes on
// stderr the warnings about what the encoding noted (rowWarnings).
func (a modelArgs) eachChunk(stderr io.Writer, m model, wantTarget bool, take string, size int, each func(c *chunk) error) error {
	sel := func(tab *table.Table) (selection, error) {
		return selectColumns(m, tab, *a.target, *a.reorder, wantTarget)
	}
	return a.eachEncoded(stderr, m, sel, take, size, func(c *chunk) error {
		var err error
		if c.preds, err = predictRows(m, c.tab, c.e.x); err != nil {
			return err
		}
		return each(c)
	})
}

// eachEncoded is eachChunk without the predictions: it selects the
// columns of the first chunk by sel and calls each with every chunk
// encoded by m, its preds nil, for the caller to predict as its model
// does.
func (a modelArgs) eachEncoded(stderr io.Writer, m model, sel func(*table.Table) (selection, error), take string, size int, each func(c *chunk) error) error {
	d, err := a.dialect.dialect()
	if err != nil {
		return err
	}
	r, name := stdin, stdinName
	if *a.data != "-" {
		f, err := table.Open(*a.data)
		if err != nil {
			return err
		}
		defer f.Close()
		r, name = f, *a.data
	}
	text := m.categorical()
	if take != "" {
		text = append(text, take)
	}
	st, err := table.NewStream(r, name, d, text...)
	if err != nil {
		return err
	}
	var cols selection
	warn := newRowWarnings(m)
	for first := true; ; first = false {
		tab, err := st.Next(size)
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		c := &chunk{tab: tab}
		if take != "" {
			if c.tab, c.ids, err = takeColumn(m, tab, take); err != nil {
				return err
			}
		}
		if first {
			if cols, err = sel(c.tab); err != nil {
				return err
			}
		}
		if c.e, err = encodeRows(m, c.tab, cols); err != nil {
			return err
		}
		warn.add(c.tab, cols, c.e)
		if err := each(c); err != nil {
			return err
		}
	}
	warn.write(stderr)
	return nil
}

// takeColumn returns tab without the column called name, unless it is
// one of m's columns, and that column's fields as they are in the file
// (tab must hold it as text): gcp predict's -id, which may name a
// feature, written then both as the id and as the model's input.
func takeColumn(m model, tab *table.Table, name string) (*table.Table, []string, error) {
	k, err := tab.Column(name)
	if err != nil {
		return nil, nil, err
	}
	col := make([]string, tab.Rows())
	for i := range col {
		col[i] = tab.Field(i, k)
	}
	if names, _ := m.columns(); slices.Contains(names, name) {
		return tab, col, nil
	}
	rest := *tab
	rest.Header = slices.Delete(slices.Clone(tab.Header), k, k+1)
	rest.Columns = slices.Delete(slices.Clone(tab.Columns), k, k+1)
	return &rest, col, nil
}
