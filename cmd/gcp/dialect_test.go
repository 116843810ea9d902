package main

import (
	"testing"

	"github.com/gcpnet/gcp/internal/dataset"
)

func TestDialectFlags(t *testing.T) {
	for _, tc := range []struct {
		sep, decimal string
		want         dataset.Dialect
		ok           bool
	}{
		{"", "", dataset.Dialect{}, true},
		{",", ".", dataset.Dialect{Sep: ',', Decimal: '.'}, true},
		{";", ",", dataset.Dialect{Sep: ';', Decimal: ','}, true},
		{"tab", "", dataset.Dialect{Sep: '\t'}, true},
		{"\t", "", dataset.Dialect{Sep: '\t'}, true},
		{`\t`, "", dataset.Dialect{Sep: '\t'}, true},
		{"|", "", dataset.Dialect{}, false},
		{";;", "", dataset.Dialect{}, false},
		{"", "'", dataset.Dialect{}, false},
		{"", ",,", dataset.Dialect{}, false},
	} {
		c := newCommand("t", "t", "")
		f := addDialectFlags(c)
		if err := c.fs.Parse([]string{"-sep", tc.sep, "-decimal", tc.decimal}); err != nil {
			t.Fatal(err)
		}
		got, err := f.dialect()
		if (err == nil) != tc.ok || err == nil && got != tc.want {
			t.Errorf("-sep %q -decimal %q: %+v, %v; want %+v (ok %v)", tc.sep, tc.decimal, got, err, tc.want, tc.ok)
		}
	}
}
