package main

import (
	"fmt"
	"runtime/debug"
	"strings"

	"github.com/gcpnet/gcp/table"
)

// dialectFlags are -sep, -decimal, -text and -dates, which every command
// that reads a data file has: the file's separator and decimal mark,
// detected unless given, the columns to read as text, and whether ISO
// dates are read as dates (table.Read).
type dialectFlags struct{ sep, decimal, text, dates *string }

// addDialectFlags defines -sep, -decimal, -text and -dates on c.
func addDialectFlags(c *command) dialectFlags {
	return dialectFlags{
		sep:     c.fs.String("sep", "", `the data file's field separator: ",", ";" or "tab" (default: detected from the header and the first rows)`),
		decimal: c.fs.String("decimal", "", `the data file's decimal mark: "." or "," (default: detected from the numbers)`),
		text:    c.fs.String("text", "", `columns to read as text (categorical), as written: names separated by commas. A column of numbers with a few fields that are not numbers is an error unless named here`),
		dates:   c.fs.String("dates", "on", `"on": a column of ISO dates (2024-03-17, 2024-03-17T06:30:00Z, 2024-03-17 06:30) is a date, the model's inputs its days since 1970-01-01 and its weekday and month; a column of other dates (03/04/2024) is an error unless named in -text. "off": dates are text, as before`),
	}
}

// dialect returns the dialect the flags give, zero fields to detect.
func (f dialectFlags) dialect() (table.Dialect, error) {
	var d table.Dialect
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
	switch {
	case f.dates == nil || *f.dates == "on":
	case *f.dates == "off":
		d.NoDates = true
	default:
		return d, fmt.Errorf(`-dates %q: want "on" or "off"`, *f.dates)
	}
	return d, nil
}

// readTable reads the data file at path in the dialect the flags give,
// keeping the columns named by text and by -text as text (table.Read).
func (f dialectFlags) readTable(path string, text ...string) (*table.Table, error) {
	d, err := f.dialect()
	if err != nil {
		return nil, err
	}
	if f.text != nil && *f.text != "" {
		for _, name := range strings.Split(*f.text, ",") {
			text = append(text, strings.TrimSpace(name))
		}
	}
	tab, err := table.ReadFile(path, d, text...)
	// The reading leaves garbage about the size of the file (the csv
	// package's copy of each record), beside a table that the encoded
	// rows then match in size: collected now, its pages take the encoded
	// rows instead of adding to them.
	debug.FreeOSMemory()
	return tab, err
}
