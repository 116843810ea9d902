package main

import (
	"fmt"
	"runtime/debug"

	"github.com/gcpnet/gcp/internal/dataset"
)

// dialectFlags are -sep and -decimal, which every command that reads a
// data file has: the file's separator and decimal mark, detected unless
// given (dataset.Read).
type dialectFlags struct{ sep, decimal *string }

// addDialectFlags defines -sep and -decimal on c.
func addDialectFlags(c *command) dialectFlags {
	return dialectFlags{
		sep:     c.fs.String("sep", "", `the data file's field separator: ",", ";" or "tab" (default: detected from the header and the first rows)`),
		decimal: c.fs.String("decimal", "", `the data file's decimal mark: "." or "," (default: detected from the numbers)`),
	}
}

// dialect returns the dialect the flags give, zero fields to detect.
func (f dialectFlags) dialect() (dataset.Dialect, error) {
	var d dataset.Dialect
	switch *f.sep {
	case "":
	case ",", ";":
		d.Sep = rune((*f.sep)[0])
	case "tab", "\t", `\t`:
		d.Sep = '\t'
	default:
		return d, fmt.Errorf(`-sep %q: want ",", ";" or "tab"`, *f.sep)
	}
	switch *f.decimal {
	case "":
	case ".", ",":
		d.Decimal = (*f.decimal)[0]
	default:
		return d, fmt.Errorf(`-decimal %q: want "." or ","`, *f.decimal)
	}
	return d, nil
}

// readTable reads the data file at path in the dialect the flags give,
// keeping the columns named by text as text (dataset.Read).
func (f dialectFlags) readTable(path string, text ...string) (*dataset.Table, error) {
	d, err := f.dialect()
	if err != nil {
		return nil, err
	}
	tab, err := dataset.ReadFile(path, d, text...)
	// The reading leaves garbage about the size of the file (the csv
	// package's copy of each record), beside a table that the encoded
	// rows then match in size: collected now, its pages take the encoded
	// rows instead of adding to them.
	debug.FreeOSMemory()
	return tab, err
}
