package main

import (
	"fmt"
	"strings"

	"github.com/gcpnet/gcp"
)

// method is what -method selects: a network of the root package under one
// of the paper's losses (gcp, ml, ml_bayes, dpd; Sec. 6.1), or
// one of its Bayesian comparators in package bayes (pbp, svgd).
type method struct {
	loss  gcp.Loss // a network's loss; unused for a Bayesian comparator
	bayes string   // "pbp" or "svgd"; empty for a network
}

var (
	pbpMethod  = method{bayes: "pbp"}
	svgdMethod = method{bayes: "svgd"}
)

// methodNames lists every -method, for messages.
const methodNames = "gcp, ml, ml_bayes, dpd, pbp or svgd"

// parseMethod returns the method that -method name selects, the paper's
// names in any case.
func parseMethod(name string) (method, error) {
	for l := gcp.LossGCP; l <= gcp.LossMLBayes; l++ {
		if strings.EqualFold(name, l.String()) {
			return method{loss: l}, nil
		}
	}
	for _, m := range []method{pbpMethod, svgdMethod} {
		if strings.EqualFold(name, m.bayes) {
			return m, nil
		}
	}
	return method{}, fmt.Errorf("-method %q: want %s", name, methodNames)
}

// String returns the -method name: the paper's name in lower case.
func (m method) String() string {
	if m.bayes != "" {
		return m.bayes
	}
	return strings.ToLower(m.loss.String())
}

// network reports whether m trains a network of the root package.
func (m method) network() bool { return m.bayes == "" }
