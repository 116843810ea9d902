package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gcpnet/gcp"
)

// hyper is how a network is trained: the columns of the paper's
// hyperparameter tables, the minibatch size and the hidden layers.
type hyper struct {
	optimizer gcp.Optimizer
	rho       float64 // RMSProp's decay; 0 is the library's default, 0.9
	lr        float64
	dropout   float64
	epochs    int
	batch     int
	hidden    []int
	members   int // networks per model, Config.Members; 0 is one
}

// String describes h on one line, with -hidden's syntax for the layers.
func (h hyper) String() string {
	opt := h.optimizer.String()
	if h.optimizer == gcp.RMSProp && h.rho != 0 {
		opt += fmt.Sprintf(" (rho %g)", h.rho)
	}
	members := ""
	if h.members > 1 {
		members = fmt.Sprintf(", %d members", h.members)
	}
	return fmt.Sprintf("%s, lr %g, dropout %g, %d epochs, batch %d, hidden %s%s",
		opt, h.lr, h.dropout, h.epochs, h.batch, joinInts(h.hidden), members)
}

// paperHidden is the width of the paper's single hidden layer on the
// real-world data sets (Sec. 6.4).
const paperHidden = 50

// genericHyper is the fixed training recipe of gcp train -validation 0
// (a plain Fit, without the search) and of gcp repro on a data set the
// appendix does not cover, with one hidden layer of paperHidden units.
var genericHyper = hyper{optimizer: gcp.Adam, lr: 1e-3, dropout: 0, epochs: 500, batch: 32}

// genericMLBayesDropout is the dropout of ml_bayes on a data set the
// appendix does not cover: "the same hyperparameters as for the ML, except
// for the dropout rate, which was set to 0.4" (Appendix E).
const genericMLBayesDropout = 0.4

// appendixHyper holds the paper's hyperparameters (Appendix E:
// Table E.1 and Table E.2), by
// data set and loss: optimizer, learning rate, dropout and epochs from the
// tables; minibatch 5 on Boston, Concrete and Yacht and 10 on Power and
// Kin8nm, from the text; one hidden layer of 50 ReLU units
// (Sec. 6.4). The text says that ML_Bayes took ML's
// hyperparameters with dropout 0.4, but the tables give ML_Bayes rows of
// their own, with other dropout rates (0.1 on Concrete) and epochs (4000
// on Yacht): the rows are used, as the more specific.
//
// One value departs from the appendix: its text gives RMSProp ρ = 0.5,
// and the one RMSProp row, Yacht's GCP, runs with ρ = 0.9 instead, the
// default of Keras, TensorFlow and Lasagne. With ρ = 0.5 our Yacht GCP
// AUC is 0.28–0.34 over seeds 1–5 (mean 0.31; 50 folds each), against
// the paper's 0.23 ± 0.09, and its AUC_corr with outliers 0.34–0.39 over
// seeds 1–3, against 0.29; with ρ = 0.9 they are 0.235–0.262 (mean 0.247)
// and 0.26–0.32, the paper's values within noise (bench/seed_spread.py).
// gcp repro -rho 0.5 runs the appendix's value as written.
var appendixHyper = map[string]map[gcp.Loss]hyper{
	"boston": {
		gcp.LossGaussianML: {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.4, epochs: 700, batch: 5},
		gcp.LossMLBayes:    {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.4, epochs: 700, batch: 5},
		gcp.LossDPD:        {optimizer: gcp.Nesterov, lr: 0.00002, dropout: 0.4, epochs: 5000, batch: 5},
		gcp.LossGCP:        {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.3, epochs: 700, batch: 5},
	},
	"concrete": {
		gcp.LossGaussianML: {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.1, epochs: 800, batch: 5},
		gcp.LossMLBayes:    {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.1, epochs: 800, batch: 5},
		gcp.LossDPD:        {optimizer: gcp.Nesterov, lr: 0.00001, dropout: 0.1, epochs: 5000, batch: 5},
		gcp.LossGCP:        {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.1, epochs: 1000, batch: 5},
	},
	"power": {
		gcp.LossGaussianML: {optimizer: gcp.Adam, lr: 0.00005, dropout: 0, epochs: 150, batch: 10},
		gcp.LossMLBayes:    {optimizer: gcp.Adam, lr: 0.00005, dropout: 0.2, epochs: 150, batch: 10},
		gcp.LossDPD:        {optimizer: gcp.Adam, lr: 0.0001, dropout: 0, epochs: 400, batch: 10},
		gcp.LossGCP:        {optimizer: gcp.Adam, lr: 0.00005, dropout: 0, epochs: 150, batch: 10},
	},
	"yacht": {
		gcp.LossGaussianML: {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.1, epochs: 2000, batch: 5},
		gcp.LossMLBayes:    {optimizer: gcp.Adam, lr: 0.0001, dropout: 0.1, epochs: 4000, batch: 5},
		gcp.LossDPD:        {optimizer: gcp.Adam, lr: 0.0002, dropout: 0.1, epochs: 2500, batch: 5},
		gcp.LossGCP:        {optimizer: gcp.RMSProp, rho: 0.9, lr: 0.001, dropout: 0.1, epochs: 1000, batch: 5},
	},
	"kin8nm": {
		gcp.LossGaussianML: {optimizer: gcp.Adam, lr: 0.0002, dropout: 0, epochs: 200, batch: 10},
		gcp.LossMLBayes:    {optimizer: gcp.Adam, lr: 0.0002, dropout: 0.1, epochs: 200, batch: 10},
		gcp.LossDPD:        {optimizer: gcp.Adam, lr: 0.0001, dropout: 0, epochs: 400, batch: 10},
		gcp.LossGCP:        {optimizer: gcp.Nesterov, lr: 0.0007, dropout: 0, epochs: 250, batch: 10},
	},
}

// defaultHyper returns the recipe for a method on the data set called
// name (a file's base name without extension, in any case) and whether
// the appendix gave it.
func defaultHyper(name string, m method) (hyper, bool) {
	name = strings.ToLower(name)
	if !m.network() {
		return bayesDefaultHyper(name, m)
	}
	if h, ok := appendixHyper[name][m.loss]; ok {
		h.hidden = []int{paperHidden}
		return h, true
	}
	h := genericHyper
	h.hidden = []int{paperHidden}
	if m.loss == gcp.LossMLBayes {
		h.dropout = genericMLBayesDropout
	}
	return h, false
}

// describe is h.String for a network, and the settings a Bayesian
// comparator uses for the others.
func (h hyper) describe(m method) string {
	if m.network() {
		return h.String()
	}
	return bayesHyper{epochs: h.epochs, hidden: h.hidden, lr: h.lr, batch: h.batch}.settings()
}

// joinInts writes layer widths as -hidden takes them: 50,50.
func joinInts(v []int) string {
	s := make([]string, len(v))
	for i, w := range v {
		s[i] = strconv.Itoa(w)
	}
	return strings.Join(s, ",")
}
