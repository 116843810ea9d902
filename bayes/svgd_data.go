package bayes

// learnStandardization sets the model's standardization from the
// training rows (x, y), row-major with Inputs features, by the configured
// rule (Standardization.learn), or returns learn's error.
func (m *SVGD) learnStandardization(x, y []float64) error {
	var err error
	m.xMean, m.xScale, m.yMean, m.yScale, err = m.cfg.Standardization.learn(x, y, m.cfg.Inputs)
	return err
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
