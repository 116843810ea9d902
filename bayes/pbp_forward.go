package bayes

import "math"

// PBPWorkspace holds the moments of one input's pass through a model's
// network. Create one per goroutine with PBP.NewWorkspace; a PBPWorkspace
// must not be used by two goroutines at the same time.
type PBPWorkspace struct {
	// mz and vz hold the mean and variance of every layer's outputs,
	// laid out by layout.units: the input layer's standardized features
	// (variance 0), then each hidden layer's ReLU outputs, each layer
	// followed by its bias slot (mean 1, variance 0), then the output.
	mz, vz []float64
	// cdf and dens hold, at the same positions as mz, each hidden unit's
	// Φ(α) and φ(α)/σ from reluMoments, which the backward pass needs.
	cdf, dens []float64
}

// NewWorkspace returns the buffers for one goroutine's predictions with
// m or with any model of the same shape.
func (m *PBP) NewWorkspace() *PBPWorkspace {
	n := m.lay.moments()
	_, v := carve(n, n, n, n)
	return &PBPWorkspace{mz: v[0], vz: v[1], cdf: v[2], dens: v[3]}
}

// fits reports whether ws holds the moments of m's network.
func (ws *PBPWorkspace) fits(m *PBP) bool {
	return ws != nil && len(ws.mz) == m.lay.moments()
}

// input returns the slots of ws for the standardized features of an
// input row.
func (ws *PBPWorkspace) input(m *PBP) []float64 { return ws.mz[:m.cfg.Inputs] }

// propagate computes the moments of every layer's outputs in ws from the
// standardized input already in ws.input, under the factorized Gaussian
// posterior of the weights, and returns the output's mean and variance:
// PBP's forward pass. Each unit's pre-activation is taken to be Gaussian
// with the moments preactivation gives; through a hidden unit's ReLU its
// moments become reluMoments', the output unit is linear.
func (m *PBP) propagate(ws *PBPWorkspace) (mean, variance float64) {
	l := &m.lay
	lo, _ := l.units(0)
	clear(ws.vz[lo : lo+l.widths[0]])
	for k := 1; k <= l.layers(); k++ {
		inLo, inHi := l.units(k - 1)
		mIn, vIn := ws.mz[inLo:inHi], ws.vz[inLo:inHi]
		mIn[len(mIn)-1], vIn[len(vIn)-1] = 1, 0 // the bias input
		wLo, wHi := l.weights(k)
		w, v := m.mean[wLo:wHi], m.variance[wLo:wHi]
		out, _ := l.units(k)
		n := len(mIn)
		hidden := k < l.layers()
		for j := range l.widths[k] {
			mu, s2 := preactivation(w[j*n:(j+1)*n], v[j*n:(j+1)*n], mIn, vIn)
			o := out + j
			if hidden {
				ws.mz[o], ws.vz[o], ws.cdf[o], ws.dens[o] = reluMoments(mu, s2)
			} else {
				ws.mz[o], ws.vz[o] = mu, s2
			}
		}
	}
	o, _ := l.units(l.layers())
	return ws.mz[o], ws.vz[o]
}

// preactivation returns the mean and variance of a unit's pre-activation
// a = Σ_i w_i z_i / √n, n = len(z), for independent weights w_i ~ N(m_i,
// v_i) and inputs z_i of mean mz_i and variance vz_i (the paper's scaling
// by the square root of the fan-in, bias included):
//
//	E[a]   = Σ m_i mz_i / √n
//	Var a  = Σ (m_i² vz_i + v_i mz_i² + v_i vz_i) / n,
//
// exact for independent factors whatever their distributions.
func preactivation(m, v, mz, vz []float64) (mean, variance float64) {
	v, mz, vz = v[:len(m)], mz[:len(m)], vz[:len(m)]
	for i, mi := range m {
		mean += mi * mz[i]
		variance += mi*mi*vz[i] + v[i]*(mz[i]*mz[i]+vz[i])
	}
	n := float64(len(m))
	return mean / math.Sqrt(n), variance / n
}
