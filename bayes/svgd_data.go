package bayes

// learnStandardization sets the model's standardization from the
// training rows (x, y), row-major with Inputs features: the mean and the
// standard deviation divided by the count, as the authors' code does
// (bayesian_nn.py, np.std), by PBP's meanScale.
func (m *SVGD) learnStandardization(x, y []float64) {
	d := m.cfg.Inputs
	m.xMean, m.xScale = make([]float64, d), make([]float64, d)
	for j := range d {
		m.xMean[j], m.xScale[j] = meanScale(x[j:], d)
	}
	m.yMean, m.yScale = meanScale(y, 1)
}

// standardizeInputs writes the rows of x, standardized, to dst.
func (m *SVGD) standardizeInputs(dst, x []float64) {
	d := m.cfg.Inputs
	for i, v := range x {
		j := i % d
		dst[i] = (v - m.xMean[j]) / m.xScale[j]
	}
}

// standardizeTargets writes the targets y, standardized, to dst.
func (m *SVGD) standardizeTargets(dst, y []float64) {
	for i, v := range y {
		dst[i] = (v - m.yMean) / m.yScale
	}
}
