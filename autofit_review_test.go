package gcp

import (
	"math"
	"strings"
	"testing"
)

// TestLawChoiceStringNamesTheTargetThatDecided: where a target's RMSE is
// 0 under both laws (its means exact on every row), keepsJoint lets it
// pass (0 ≤ 1.05·0) and another target's 1.2× keeps the copula; String
// must then name that target and its 1.2×, and a kept joint network's
// worst ratio must not read NaN. worstRMSERatio takes the 0/0 = NaN ratio
// as the largest instead.
func TestLawChoiceStringNamesTheTargetThatDecided(t *testing.T) {
	rmse := [2][]float64{{0, 1.2}, {0, 1}}
	if (copulaFitted{nll: 1, jointNLL: 0.9, rmse: rmse}).keepsJoint() {
		t.Fatal("the joint network kept with target 1's RMSE 1.2× the copula's")
	}
	law := LawChoice{Law: LawCopula, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: rmse}
	if s := law.String(); !strings.Contains(s, "target 1 are 1.2×") {
		t.Errorf("%q: want target 1's 1.2× named, the ratio that kept the copula", s)
	}
	joint := LawChoice{Law: LawJoint, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: [2][]float64{{0, 1.01}, {0, 1}}}
	if worst, at := joint.worstRMSERatio(); math.IsNaN(worst) || at != 1 {
		t.Errorf("%q: worst ratio %v at target %d, want 1.01 at target 1", joint.String(), worst, at)
	}
}

// TestKeepsJointWhereTheCopulaIsNaN: before the means guard the joint
// network was kept unless the copula's joint NLL was lower
// (!(c.nll < c.jointNLL)), so a copula of NaN scores never replaced it.
// keepsJoint counts a NaN RMSE of the copula's against the joint
// network, and keeps the copula whose NLL and means are NaN.
func TestKeepsJointWhereTheCopulaIsNaN(t *testing.T) {
	f := copulaFitted{nll: math.NaN(), jointNLL: 1, rmse: [2][]float64{{1, 1}, {math.NaN(), 1}}}
	if !f.keepsJoint() {
		t.Error("the copula of NaN joint NLL and a NaN RMSE kept over a finite joint network")
	}
}

// TestLawChoiceStringRatioAboveTolerance: a ratio of 1.052 keeps the
// copula (above 1.05), but String's %.3g prints it as 1.05, so the line
// reads "are 1.05× …, above 1.05×".
func TestLawChoiceStringRatioAboveTolerance(t *testing.T) {
	law := LawChoice{Law: LawCopula, Compared: true, CVNLL: [2]float64{0.9, 1}, CVRMSE: [2][]float64{{1.052}, {1}}}
	if s := law.String(); strings.Contains(s, "are 1.05× the one-target model's RMSE, above 1.05×") {
		t.Errorf("%q: the ratio that kept the copula prints as the tolerance", s)
	}
}
