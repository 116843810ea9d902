#!/usr/bin/env python3
"""Map every \\label of the GCP paper to the number printed in its PDF.

Writes docs/paper-numbers.md (see its introduction). A docs tool only: the
library never runs it, and it reads the paper only from the path it is given.

    python3 docs/paper_numbers.py PATH/TO/gcp-paper.tex            # compile, check, write
    python3 docs/paper_numbers.py PAPER.tex --aux gcp-paper.aux      # use an existing .aux
    python3 docs/paper_numbers.py PAPER.tex --no-latex               # counter parser only
    python3 docs/paper_numbers.py PAPER.tex -o -                     # print instead of writing

Numbers come from LaTeX itself: a copy of the .tex in a temporary directory
gets graphicx's demo option (the figures' image files are absent) and
hyperref (so that each \\newlabel in the .aux names its counter), and
pdflatex runs twice. An independent counter parser of the .tex (equation,
section, appendix, figure, table, every \\newtheorem counter, enumerate
items) must then agree with the .aux on every label and every number and
counter, or the script stops. --no-latex uses the parser alone.

The second table scans the repository (git ls-files, *.go, *.md, *.py) for
the labels it cites, as the worklist for replacing them by printed numbers.
"""

import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

ARXIV = "arXiv:1802.02643v3"

# A few words on what each label is, in the paper's order. Every label of the
# paper must have an entry; the script stops on a missing or stale one.
DESCRIPTIONS = {
    "eqLogLikelihoodPredictive": "mean log-likelihood of the predictive distribution over the training set",
    "secMotivation": "Motivation",
    "eqNormalGamma": "normal-gamma prior density p(μ,τ | m,ν,α,β)",
    "eqEVmu": "mean and variance of μ under the prior",
    "eqEVtau": "mean and variance of τ under the prior",
    "eqStandardCPEstimate": "estimates m_est = m, V_est = β(ν+1)/((α−1)ν)",
    "eqMaxLogLikelihoodPred": "maximizing the predictive likelihood over the weights w1..w4",
    "figGraphicalModel": "graphical model: x, m,α,β,ν, weights w; μ, τ, y",
    "secCPUpdate": "Conjugate prior update",
    "eqPosterior": "posterior p_post(μ,τ) is normal-gamma with primed parameters",
    "eqCPUpdade": "conjugate prior (CP) update m', ν', α', β' (label misspelled in the paper)",
    "eqKLDivergenceIntegral": "KL divergence D_KL(p_post‖p) as an integral",
    "eqKLDivergence": "closed form K(m,ν,α,β) of the KL divergence posterior→prior",
    "eqGradientDescentW": "GCP update of the weights, w_new = w − λ∇_w K",
    "tableBayesVsGCP": "Bayesian NNs with variational inference vs GCP networks",
    "subsecGSPandPredictiveDistribution": "Maximization of the predictive distribution and the GCP update",
    "eqPpred": "predictive distribution p_pred(y|w) = ∫ L(y|θ) p(θ|w) dθ",
    "eqPpost": "Bayes posterior p_post(θ|w,y)",
    "eqKLGeneral": "K(w,y) = D_KL(p_post‖p) for a general prior family",
    "lNablawKy": "∇_w K(w,y) = −∇_w ln p_pred(y|w), posterior frozen",
    "eqGradientDescentWAveragedFinite": "GCP update averaged over N observations = ascent on the mean predictive log-likelihood",
    "eqGradientDescentWAveraged": "GCP update for infinitely many samples = descent on D_KL(q‖p_pred)",
    "rGCPupdatePredictiveDistr": "the GCP update and the predictive distribution",
    "rGCPupdatePredictiveDistr0": "the GCP update maximizes the likelihood of p_pred",
    "rGCPupdatePredictiveDistr1": "the GCP update is gradient descent on D_KL(q‖p_pred)",
    "rGCPupdatePredictiveDistr2": "normal q, Student-t p_pred: dof → ∞, variance on a curve in (β,ν)",
    "apprGeneral": "the general practical approach (GCP networks, training, estimates, correction)",
    "eqNetworksMAlphaBetaNu": "m, α, β, ν as neural networks of x with weights w1..w4",
    "eqEstMeanVarNetwork'": "estimates m_est = m, Student-t variance V_est = β(ν+1)/((α−1)ν)",
    "eqEstMeanVarNetwork": "correction formula Ṽ_est = β(ν+1)/((α−A(α))ν)",
    "secDynamics4": "Dynamics of m, α, β, ν",
    "eqGradientDescentBeta": "update of m (and α, β, ν) induced by the weight update, linearized",
    "eqGradientDescent": "GCP update of m, α, β, ν with learning rates λ1..λ4",
    "eqSigmaBetaNu": "σ := β(ν+1)/ν",
    "eqDKmPure": "∂K/∂m",
    "eqDKalphaPure": "∂K/∂α",
    "eqDKbetaPure": "∂K/∂β",
    "eqDKnuPure": "∂K/∂ν",
    "figKLDivergence": "prior, posteriors and the averaged KL gradient in parameter space",
    "condLambdaEqual": "equal learning rates λ1 = λ2 = λ3 = λ4",
    "eqODE4": "dynamical system for m, α, β, ν (expected gradients)",
    "rGradientFlow4Eq": "the 4-equation system is a gradient flow of D_KL(q‖p_pred)",
    "eqDKmu": "E[∂K/∂m] as an integral over y",
    "thDKm": "m = E[y] is the unique stable equilibrium of the m-equation",
    "eqDKmu1": "E[∂K/∂m] normalized (E[y] = 0, V = 1), in the proof",
    "condmEqualsE": "m = E[y]",
    "eqODE3": "dynamical system for α, β, ν (m = E[y])",
    "eqDKalphaExp": "E[∂K/∂α] as a Gaussian integral",
    "eqDKbetaExp": "E[∂K/∂β] as a Gaussian integral",
    "eqDKnuExp": "E[∂K/∂ν] as a Gaussian integral",
    "figAGalpha": "graph of A(α)",
    "defA": "A(α), the root of F(α−A) = α/((2α+1)(α−A))",
    "eqDKbetanu02": "the defining equation of A(α)",
    "eqFAalpha": "F(x): Gaussian integral and closed form with erfc",
    "lAProperties": "properties of A(α)",
    "lAProperties1": "the defining equation has a unique root A(α)",
    "lAProperties2": "A(α) is monotonically increasing",
    "lAProperties3": "bounds 2α/(2α+3) < A(α) < min(α,1)",
    "lAProperties4": "A(α) satisfies an ODE",
    "eqAODE": "A'(α) = 1 − 2(α−A)/((2α+1)A)",
    "lAProperties5": "asymptotics of A(α) as α → 0 and α → ∞",
    "eqPropertiesA": "A = α − k0 α² + o(α²) as α → 0, A = 1 − k1/α + o(1/α) as α → ∞",
    "eqSigmaFunctions": "σ_ϰ(α) = (1 − ϰ/α)(α − A(α))V (in the unlabelled Definition 3.2)",
    "thStrip": "main theorem for α, β, ν: absorbing strip S_*, α → ∞, ν → 0, β → β_*",
    "thStrip1": "curve σ_*(α) where α̇ = 0; region S_* forward invariant",
    "eqSStar": "the region S_* between σ_*(α) and σ_0(α)",
    "thStrip2": "every trajectory enters S_*; then α, β increase and ν decreases",
    "thStrip4": "(ν, β) stay on an integral curve (label ends in 4, printed item 3)",
    "eqCurvesNuBeta": "integral curves β² + ν² + 2ν³/3 = C",
    "eqCurvesNuBetaODE": "dβ/dν = −ν(ν+1)/β",
    "thStrip3": "α → ∞, A(α) → 1, ν → 0, β → β_* (label ends in 3, printed item 4)",
    "corVestAlphaInfintiy": "bounds on V_est/V as α → ∞ (label misspelled in the paper)",
    "figSkappa_figCurvesCalpha": "curves σ_0, σ_ϰ, σ_* and S_* (left); integral curves and C_{α,V} (right)",
    "figTrajectories3D": "GCP trajectories in (α,β,ν) and α, β, ν versus epochs",
    "remVestAlphaInfinity": "limits of the classical CP update compared with the GCP update",
    "eqTwoDimSurface": "manifold σ = σ_0(α) where E[∂K/∂β] = E[∂K/∂ν] = 0",
    "lDKbetanu": "signs of β̇, ν̇, σ̇ relative to σ_0(α)",
    "eqDKbetanu0": "β̇ = ν̇ = 0 on σ = σ_0(α)",
    "eqDKbetanu1": "signs of σ̇, β̇, ν̇ above and below σ_0(α)",
    "lCurvesNuBeta": "(ν, β) trajectories lie on curves independent of α and V",
    "lDKalpha": "α̇ > 0 on σ_0(α); α̇ < 0 on σ_ϰ(α) for large α",
    "eqDKalpha": "α̇ > 0 on σ = σ_0(α)",
    "eqDKalphaKappa": "α̇ < 0 on σ = σ_ϰ(α), α > α_ϰ",
    "eqLimAlphaSigma0": "limit (α̂, σ̂) with vanishing derivatives, in the proof",
    "secDynamicsFixedAlpha": "Dynamics of m, β, ν for a fixed α",
    "eqGradientDescentFixedAlpha": "GCP update of m, β, ν with α fixed",
    "eqODE3FixedAlpha": "dynamical system for β, ν with α fixed",
    "rGradientFlow2Eq": "the fixed-α system is a gradient flow of D_KL(q‖p_pred)",
    "thDynamicsFixedAlpha": "fixed α: curve of equilibria C_{α,V}, convergence, orthogonality",
    "thDynamicsFixedAlpha1": "globally attracting family of equilibria on C_{α,V}",
    "eqAttractingCurveEquil": "curve of equilibria C_{α,V}: β(ν+1)/ν = σ_0(α)",
    "thDynamicsFixedAlpha2": "each trajectory converges along its integral curve to (ν_*, β_*)",
    "thDynamicsFixedAlpha3": "integral curves are orthogonal to the curves of equilibria",
    "figTrajectories2D": "fixed α = 2: trajectories in (ν,β), means and variances versus epochs",
    "eqOrthogonalCurves": "β = f(ν) (equilibria) and β = g(ν) (integral curve)",
    "corVestAlphaFixed": "fixed α: Ṽ_est(t) → V",
    "eqVarianceEst": "Ṽ_est(t) = β(ν+1)/((α−A(α))ν) → V",
    "eqNuODE": "scalar ODE for ν along β = g(ν)",
    "figGradientDescent": "schematic surface, its level sets and the gradient-descent trajectory",
    "eqSurfaceNuBetaV": "surface v = β(ν+1)/((α−A(α))ν)",
    "secRoleFixedAlpha": "Role of a fixed α",
    "subsecSensitivityOutliers": "Sensitivity to outliers",
    "figOutliers": "500 normal samples plus one outlier: GCP vs squared error and ML",
    "subsecRoleAlpha": "Learning speed in clean and noisy regions",
    "eqInitialBetaNu": "initial conditions β(0) ≈ ν(0) ≈ 1",
    "eqBetaSoftplus": "softplus output β = ln(1 + e^w)",
    "obsSmallalpha": "learning speeds for small α",
    "obsSmallalpha1": "small α, clean regions: LerSp(m), LerSp(Var) of order 1",
    "obsSmallalpha2": "small α, noisy regions: LerSp(m) ~ 1/V, LerSp(Var) ~ α",
    "obsLargealpha": "learning speeds for large α",
    "obsLargealpha1": "large α, clean regions: LerSp(m) ~ α, LerSp(Var) ~ 1",
    "obsLargealpha2": "large α, noisy regions: LerSp(m) ~ 1/V, LerSp(Var) ~ α",
    "table": "relative learning speeds of m and Ṽ_est, clean vs noisy (the label is the word \"table\")",
    "obsValpha": "limits β_*, ν_* are set by (α − A(α))V",
    "obsValpha1": "(α−A)V ≪ 1 ⇒ β_* ≈ 0, ν_* ≈ 1",
    "obsValpha2": "(α−A)V ≫ 1 ⇒ β_* ≈ 1, ν_* ≈ 0",
    "figCleanNoisy": "trajectories, means and variances for several α and V",
    "eqKappaV": "assumption Ṽ_est = cV",
    "eqDkmuVAsymp": "E[∂K/∂m] rescaled by V",
    "eqDkmuVAsymp1": "asymptotics of E[∂K/∂m] as V → 0 and V → ∞",
    "secNN": "GCP neural networks: experiments",
    "subsecMethods": "Methods (the compared methods)",
    "subsecSyntheticAleatoricEpistemic": "Synthetic data set: aleatoric vs. epistemic uncertainty",
    "figSyntheticDataAleatoricEpistemic": "predictions on y ~ N(x³, 3²) by the compared methods",
    "subsecSynthetic": "Synthetic data set: robustness to outliers in the training set",
    "figSyntheticDataWithOutliers": "sin(3x) data with 5% outliers: predicted means and standard deviations",
    "subsecRealWorld": "Real world data sets (architectures, protocol)",
    "tableSqErrorBostonConcrete": "RMSE and AUC on the real-world data sets",
    "figSqErrorRemovedSampleCurves": "RMSE(n) curves for the data sets of Table 6.1",
    "subsecRealWorldOutliers": "Real world data sets: outliers in the training data sets",
    "tableSqErrorBostonConcreteOutliers": "RMSE and AUC with 5% outliers",
    "figSqErrorRemovedSampleCurvesOutliers": "RMSE(n) curves with 5% outliers",
    "secConclusion": "Conclusion",
    "appendix": "Properties of A(α): proof of Lemma 3.1 (the label is the word \"appendix\")",
    "eqE0": "E(α, A) = 0, an equivalent form of the equation for A(α)",
    "lEalpha1": "unique root A ∈ (0, α); asymptotics as α → 0",
    "eqEalpha0": "E(α, 0) < 0",
    "eqDKbetanu02'": "(2α+1)(α−A)F(α−A) − α = 0",
    "eqDKbetanu03'": "expansion of x F(x) as x → 0",
    "lEalpha2": "for α ≥ 1, root A ∈ (0, 1); A = 1 − 3/(2α) + o(1/α)",
    "eqDKbetanu04'": "expansion of x F(x) as x → ∞",
    "lAODE": "A(α) satisfies the ODE of Lemma 3.1, item 4",
    "eqA'": "A' = −E_A⁻¹ E_α (implicit function theorem)",
    "eqEalpha": "E_α",
    "eqEA": "E_A = α/(α−A) − 1",
    "lAmonotone": "A'(α) > 0 and 2α/(2α+3) < A(α)",
    "eqAMonotone": "2α/(2α+3) < A(α)",
    "eqg'0": "g'(α) = 0, g(α) ≤ 0 for some α (to be contradicted)",
    "appendixLemmaDKbetanu": "Proof of Lemma 3.2",
    "eqDKbetanu01": "ν̇ = 0 on σ_0(α) rewritten; equivalent to the equation for A(α)",
    "appendixLemmaCurvesNuBeta": "Proof of Lemma 3.3",
    "appendixLemmaDKalpha": "Proof of Lemma 3.4",
    "eqDKalpha1": "E[∂K/∂α] on σ = σ_ϰ(α)",
    "eqDKalphaInfty": "E[∂K/∂α] on σ_ϰ(α) tends to 0 as α → ∞",
    "eqDKalpha1'": "∂/∂α ln(1 + γz²)",
    "eqDKalpha1''": "Gaussian integral of z²/(1 + γz²) for ϰ = 0",
    "eqDeriv2alphaTildeG0'": "G̃_0(α), a lower bound of G_0(α)",
    "eqG0alphaPositive": "G̃_0(α) > 0 for all α > 0",
    "eqAsympPsi'infty": "Ψ'(α) − Ψ'(α+1/2) = 1/(2α²) + 1/(4α³) + O(α⁻⁵)",
    "eqG0alphaPositiveLargeAlpha": "G̃_0(α) = 3/(8α⁴) + O(α⁻⁵) > 0 for large α",
    "appendixHyperparameters": "Hyperparameters of the compared methods",
    "tableHyperparametersBostonConcrete": "optimizers and hyperparameters: Boston, Concrete, Power",
    "tableHyperparametersYacht": "optimizers and hyperparameters: Yacht, Kin8nm, MSD",
}

# Verdicts on the heuristic "printed number next to a label" check of the
# repository, keyed by (file, label, printed text as found).
REVIEWED = {
    ("theorems_test.go", "subsecSyntheticAleatoricEpistemic", "Fig. 6.1"):
        "fine: the label is cited as a section (6.2) and Fig. 6.1 is that section's figure",
}

# Label-shaped words in the repository that are not citations.
NOT_LABELS = {"appendixHyper"}  # a Go variable in cmd/gcp

# What a label-shaped word that is not a label probably stands for.
LIKELY = {
    "defAlphaCorrection": "probably `defA` (Definition 3.1, which defines A(α))",
}


# --------------------------------------------------------------------------
# Independent counter parser of the .tex.

def strip_comments(tex):
    return re.sub(r"(?<!\\)%.*", "", tex)


def theorem_decls(tex):
    """env -> (counter, printed name) from \\newtheorem; starred ones are unnumbered."""
    out = {}
    for m in re.finditer(r"\\newtheorem(\*?)\{(\w+)\}(?:\[(\w+)\])?\{([^}]*)\}(?:\[(\w+)\])?", tex):
        star, env, shared, name, within = m.groups()
        if star:
            continue
        if within not in (None, "section"):
            sys.exit(f"\\newtheorem{{{env}}} numbered within {within}: not supported")
        if shared is None and within is None and "\\numberwithin{" + env + "}" not in tex:
            sys.exit(f"\\newtheorem{{{env}}} not numbered within section: not supported")
        out[env] = (shared or env, name)
    return out


def parse(tex):
    """Labels in source order: dicts with label, number, counter, kind, parent."""
    tex = strip_comments(tex)
    preamble, _, body = tex.partition("\\begin{document}")
    thms = theorem_decls(preamble)
    for c in ("equation", "figure", "table"):
        if f"\\numberwithin{{{c}}}{{section}}" not in preamble:
            sys.exit(f"{c} is not numbered within section: not supported")
    if re.search(r"\\(tag|setcounter|addtocounter|stepcounter|refstepcounter)\b", body):
        sys.exit("the body changes counters by hand: the parser does not follow that")
    display = {"equation", "align", "gather", "multline", "eqnarray"}
    multi = {"align", "gather", "eqnarray"}
    tok = re.compile(
        r"\\(section|subsection|subsubsection)(\*?)"
        r"|\\appendix\b"
        r"|\\begin\{(\w+\*?)\}"
        r"|\\end\{(\w+\*?)\}"
        r"|\\label\{([^}]*)\}"
        r"|\\caption\b"
        r"|\\item\b"
        r"|\\\\"
        r"|\\(?:nonumber|notag)\b")
    sec = [0, 0, 0]
    appendix = False
    count = collections.Counter()
    cur = None          # (number, counter) that a \label picks up
    stack = []          # open environments: [name, label or None]
    enum = []           # enumerate item counters
    line_labels, line_nonum = [], False
    out = []

    def S():
        return chr(64 + sec[0]) if appendix else str(sec[0])

    def finish_line():
        nonlocal line_labels, line_nonum
        if not line_nonum:
            count["equation"] += 1
            for lab in line_labels:
                out.append(dict(label=lab, number=f"{S()}.{count['equation']}", counter="equation",
                                kind="equation", parent=None))
        elif line_labels:
            sys.exit(f"label on an unnumbered line: {line_labels}")
        line_labels, line_nonum = [], False

    for m in tok.finditer(body):
        g = m.group(0)
        if m.group(1):
            if m.group(2):
                continue
            lvl = ("section", "subsection", "subsubsection").index(m.group(1))
            sec[lvl] += 1
            sec[lvl + 1:] = [0] * (2 - lvl)
            if lvl == 0:
                count.clear()
                c = "appendix" if appendix else "section"
                cur = (S(), c, c)
            else:
                cur = (".".join([S()] + [str(x) for x in sec[1:lvl + 1]]), m.group(1), m.group(1))
        elif g.startswith("\\appendix"):
            appendix, sec = True, [0, 0, 0]
        elif m.group(3):
            env = m.group(3)
            stack.append([env, None])
            if env in thms:
                c = thms[env][0]
                count[c] += 1
                cur = (f"{S()}.{count[c]}", c, env)
            elif env == "equation" or env == "multline":
                count["equation"] += 1
                cur = (f"{S()}.{count['equation']}", "equation", "equation")
            elif env in multi:
                line_labels, line_nonum = [], False
            elif env == "enumerate":
                enum.append(0)
            elif env in ("itemize", "description"):
                enum.append(None)
        elif m.group(4):
            env = m.group(4)
            if env == "document":
                break
            if not stack or stack[-1][0] != env:
                sys.exit(f"\\end{{{env}}} does not close {stack[-1][0] if stack else 'anything'}")
            stack.pop()
            if env in multi:
                finish_line()
            elif env in ("enumerate", "itemize", "description"):
                enum.pop()
        elif m.group(5) is not None:
            lab = m.group(5)
            inner = [e for e, _ in stack if e in display or e.rstrip("*") in display]
            if inner and inner[-1] in multi:
                line_labels.append(lab)
                continue
            if inner and inner[-1].endswith("*"):
                sys.exit(f"label {lab} in an unnumbered {inner[-1]}")
            number, counter, kind = cur
            parent = None
            if counter == "item":
                parent = next((f[1] for f in reversed(stack) if f[0] in thms), None)
            elif kind in thms:
                for f in reversed(stack):
                    if f[0] == kind:
                        f[1] = f[1] or lab
                        break
            out.append(dict(label=lab, number=number, counter=counter, kind=kind, parent=parent))
        elif g == "\\caption":
            env = next(e for e, _ in reversed(stack) if e.rstrip("*") in ("figure", "table"))
            c = env.rstrip("*")
            count[c] += 1
            cur = (f"{S()}.{count[c]}", c, c)
        elif g == "\\item":
            if enum[-1] is None:
                continue
            enum[-1] += 1
            n = str(enum[-1]) if len(enum) == 1 else None
            if n is None:
                # \p@enumii\theenumii: "1a"; deeper levels are not used here
                if len(enum) > 2:
                    sys.exit("labelled items nested three deep: not supported")
                if None in enum:
                    sys.exit("enumerate nested in itemize: not supported")
                n = f"{enum[0]}{chr(96 + enum[1])}"
            cur = (n, "item", "item")
        elif g == "\\\\":
            if stack and stack[-1][0] in multi:
                finish_line()
        else:  # \nonumber, \notag
            line_nonum = True
    # Labels of align/gather lines are appended when their line ends; nothing
    # else can be labelled inside a display, so the list is in source order.
    return out, thms


# --------------------------------------------------------------------------
# LaTeX.

def compile_aux(tex_path):
    if not shutil.which("pdflatex"):
        sys.exit("pdflatex not found: install texlive-latex-base, -recommended, -extra "
                 "and texlive-plain-generic, or pass --aux or --no-latex")
    src = open(tex_path, encoding="utf-8").read()
    src = "\\PassOptionsToPackage{demo}{graphicx}\n" + src
    src = src.replace("\\begin{document}", "\\usepackage{hyperref}\n\\begin{document}", 1)
    with tempfile.TemporaryDirectory() as d:
        with open(os.path.join(d, "paper.tex"), "w", encoding="utf-8") as f:
            f.write(src)
        for _ in range(2):
            r = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper.tex"],
                               cwd=d, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
            if r.returncode != 0:
                sys.exit("pdflatex failed:\n" + r.stdout.decode(errors="replace")[-3000:])
        log = open(os.path.join(d, "paper.log"), encoding="latin-1").read()
        if "multiply defined" in log:
            sys.exit("LaTeX reports multiply defined labels")
        bad = re.findall(r"Reference `([^']*)' on page", log)
        if bad:
            sys.exit(f"LaTeX reports undefined references: {bad}")
        return open(os.path.join(d, "paper.aux"), encoding="utf-8").read()


def brace_groups(s, i):
    """The top-level {...} groups of s from index i on, up to the first non-brace."""
    groups = []
    while i < len(s) and s[i] == "{":
        depth, j = 0, i
        while True:
            if s[j] == "\\":
                j += 2
                continue
            depth += {"{": 1, "}": -1}.get(s[j], 0)
            if depth == 0:
                break
            j += 1
        groups.append(s[i + 1:j])
        i = j + 1
    return groups


def read_aux(aux):
    """label -> (number, counter or None); the counter comes from hyperref's anchor."""
    out = {}
    for line in aux.splitlines():
        if not line.startswith("\\newlabel{"):
            continue
        label, body = brace_groups(line, len("\\newlabel"))
        fields = brace_groups(body, 0)
        counter = None
        if len(fields) >= 4:  # {number}{page}{title}{anchor}{}
            counter = fields[3].split(".")[0]
            counter = {"Item": "item"}.get(counter, counter)
        out[label] = (fields[0], counter)
    return out


def check(parsed, aux):
    errors = []
    plabels = [p["label"] for p in parsed]
    dup = [l for l, n in collections.Counter(plabels).items() if n > 1]
    if dup:
        errors.append(f"labels defined twice in the .tex: {dup}")
    if set(plabels) != set(aux):
        errors.append(f"only in .tex: {sorted(set(plabels) - set(aux))}; only in .aux: {sorted(set(aux) - set(plabels))}")
    for p in parsed:
        if p["label"] not in aux:
            continue
        number, counter = aux[p["label"]]
        if number != p["number"]:
            errors.append(f"{p['label']}: .aux says {number}, parser says {p['number']}")
        if counter is not None and counter != p["counter"]:
            errors.append(f"{p['label']}: .aux counter {counter}, parser counter {p['counter']}")
    if errors:
        sys.exit("LaTeX and the parser disagree:\n  " + "\n  ".join(errors))


# --------------------------------------------------------------------------
# Printed forms.

def printed(rows_by_label, thms, p):
    n, kind = p["number"], p["kind"]
    if kind == "equation":
        return f"Eq. ({n})"
    if kind in ("section", "subsection"):
        return f"Sec. {n}"
    if kind == "appendix":
        return f"Appendix {n}"
    if kind == "figure":
        return f"Fig. {n}"
    if kind == "table":
        return f"Table {n}"
    if kind == "item":
        if p["parent"] is None:
            return f"item {n}"
        return f"{printed(rows_by_label, thms, rows_by_label[p['parent']])}, item {n}"
    return f"{thms[kind][1]} {n}"


# --------------------------------------------------------------------------
# Repository scan.

def label_regex(labels):
    alt = "|".join(re.escape(l) for l in sorted(labels, key=len, reverse=True))
    return re.compile(r"(?<![A-Za-z0-9_])(" + alt + r")(?![A-Za-z0-9_])")


PRINTED_WORD = (r"(?:Lemmas?|Theorems?|Corollary|Definition|Remark|Condition|Observation|"
                r"Sec\.|Section|Appendix|Fig\.|Figure|Table|Eqs?\.)")


def scan(repo, labels, printed_of, skip):
    files = subprocess.run(["git", "ls-files"], cwd=repo, stdout=subprocess.PIPE,
                           check=True).stdout.decode().split()
    # "table" and "appendix" are also English words: counted only as `table`, {table}.
    words = {"table", "appendix"}
    rx = label_regex([l for l in labels if l not in words])
    rx_words = re.compile(r"[`{](table|appendix)[`}]")
    shape = re.compile(r"(?<![A-Za-z0-9_])((?:eq|sec|subsec|th|l|lem|cor|def|r|rem|cond|appr|obs|fig|table|appendix)"
                       r"[A-Z][A-Za-z0-9_']*)")
    alt = "|".join(re.escape(l) for l in sorted(labels, key=len, reverse=True))
    lab = r"`?(?P<l%d>" + alt + r")`?(?![A-Za-z0-9_])"
    num = r"\s*\(?(?P<n%d>[A-G]?[0-9.]*[0-9A-G])\)?"
    near = re.compile(r"(?P<w1>" + PRINTED_WORD + r")" + num % 1 + r"[\s,;]*\(?\s*" + lab % 1
                      + r"|" + lab % 2 + r"\s*[,(]\s*(?P<w2>" + PRINTED_WORD + r")" + num % 2)
    generated = {}
    hits = collections.defaultdict(collections.Counter)
    outside_comments = collections.defaultdict(list)
    other_files = collections.defaultdict(collections.Counter)
    unknown = collections.defaultdict(collections.Counter)
    mismatches = []
    for f in files:
        if f in skip:
            continue
        path = os.path.join(repo, f)
        if os.path.islink(path) or not os.path.isfile(path):
            continue
        try:
            text = open(path, encoding="utf-8").read()
        except (UnicodeDecodeError, OSError):
            continue
        code = f.endswith((".go", ".md", ".py"))
        g = re.match(r"// Code generated by (\S+?);? DO NOT EDIT", text)
        if g and f.endswith(".go"):
            generated[f] = g.group(1)
        for i, line in enumerate(text.splitlines(), 1):
            found = [m.group(1) for m in rx.finditer(line)] + [m.group(1) for m in rx_words.finditer(line)]
            for m in (rx.finditer(line) if code else ()):
                if f.endswith((".go", ".py")):
                    k = line.find("//" if f.endswith(".go") else "#")
                    if k < 0 or k > m.start():
                        outside_comments[m.group(1)].append(f"{f}:{i}")
            for l in found:
                (hits if code else other_files)[l][f] += 1
            if not code:
                continue
            for m in shape.finditer(line):
                w = m.group(1)
                if w in labels or w in NOT_LABELS:
                    continue
                if w.endswith("'s") and w[:-2] in labels:
                    continue
                if w.rstrip("'") in labels:
                    continue
                if w.rstrip("'") in NOT_LABELS:
                    continue
                unknown[w][f"{f}:{i}"] += 1
            for m in near.finditer(line):
                if m.group("l1"):
                    word, n, l = m.group("w1"), m.group("n1"), m.group("l1")
                else:
                    word, n, l = m.group("w2"), m.group("n2"), m.group("l2")
                if n != printed_of[l]["number"]:
                    key = (f, l, f"{word} {n}")
                    mismatches.append((f"{f}:{i}", l, f"{word} {n}", REVIEWED.get(key, "")))
    generated = {f: gen for f, gen in generated.items() if any(f in c for c in hits.values())}
    return hits, outside_comments, other_files, unknown, mismatches, generated


# --------------------------------------------------------------------------
# Markdown.

def md_code(s):
    return f"`{s}`"


def cell(s):
    return s.replace("|", "\\|")


def render(rows, thms, repo_scan, source):
    by_label = {p["label"]: p for p in rows}
    hits, outside, other, unknown, mismatches, generated = repo_scan
    kinds = collections.Counter(p["kind"] for p in rows)
    out = []
    w = out.append
    w("# Paper label → printed number")
    w("")
    w("Code comments in this repository cite the paper (Gurevich & Stuke, \"Gradient conjugate")
    w(f"priors and multi-layer neural networks\", {ARXIV}) by the numbers printed in its PDF.")
    w("They once cited its LaTeX `\\label` keys, such as `lNablawKy` or `subsecRealWorld`, which")
    w("a reader of the PDF cannot look up; the rewrite used this table, which maps every label")
    w("of the paper to the number printed in the PDF, written as a")
    w("citation would be (\"Lemma 2.1\", \"Eq. (3.4)\", \"Sec. 6.4\", \"Appendix E\"); items of")
    w("enumerated statements are written \"Theorem 3.2, item 1\", as the paper itself cites them.")
    w("")
    w(f"Produced by `docs/paper_numbers.py` from the arXiv source of {ARXIV} ({source}).")
    w("The numbers are LaTeX's own: the script compiles a copy of the .tex with pdflatex")
    w("(twice; figures replaced by graphicx's `demo` boxes, hyperref added so that the .aux names")
    w("each label's counter) and reads `\\newlabel{key}{{number}...}` from the .aux. An independent")
    w("counter parser of the .tex (sections, appendix letters, equations and align lines, every")
    w("`\\newtheorem` counter, figures, tables, enumerate items) must agree with LaTeX on every")
    w("number and counter, or the script stops. Page numbers are left out: without the figures")
    w("the page breaks differ from the published PDF.")
    w("")
    w("Regenerate (needs pdflatex; Debian: `texlive-latex-base texlive-latex-recommended")
    w("texlive-latex-extra texlive-plain-generic`):")
    w("")
    w("    python3 docs/paper_numbers.py PATH/TO/gcp-paper.tex")
    w("")
    w("`--aux FILE` reads an existing .aux instead of compiling; `--no-latex` uses the parser alone.")
    w("")
    w("Numbering of the paper, for orientation: equations, theorem-like statements, figures and")
    w("tables are numbered within sections (Eq. (3.4), Lemma 3.1, Fig. 3.2, Table 6.1); each kind")
    w("of statement has its own counter, so Lemma 3.1, Theorem 3.1, Definition 3.1, Remark 3.1,")
    w("Condition 3.1 and Corollary 3.1 all exist. Appendices are lettered A–E (Lemma A.1, Eq. (D.7)).")
    w("Traps: `thStrip3` is printed item 4 of Theorem 3.2 and `thStrip4` item 3; `eqCPUpdade` and")
    w("`corVestAlphaInfintiy` are spelled so in the paper; `table` and `appendix` are labels too.")
    w("")
    w(f"## All {len(rows)} labels, in order of appearance")
    w("")
    w("Counts: " + ", ".join(f"{k} {v}" for k, v in sorted(kinds.items(), key=lambda kv: -kv[1])) + ".")
    w("")
    w("| label | kind | printed | what it is |")
    w("|---|---|---|---|")
    for p in rows:
        w(f"| {md_code(p['label'])} | {p['kind']} | {printed(by_label, thms, p)} | {cell(DESCRIPTIONS[p['label']])} |")
    w("")
    total = sum(sum(c.values()) for c in hits.values())
    w("## Labels the repository cites (worklist)")
    w("")
    w(f"{len(hits)} distinct labels, {total} citations in tracked `*.go`, `*.md` and `*.py` files")
    w("(this page and its script excluded), found as whole words; `table` and `appendix` count only")
    w("when written `` `table` `` or `{table}`, since they are English words too. Ordered as in the")
    w("paper; \"where\" is file (count).")
    w("")
    w("| label | printed | count | where |")
    w("|---|---|---|---|")
    for p in rows:
        c = hits.get(p["label"])
        if not c:
            continue
        where = ", ".join(f"{f} ({n})" for f, n in sorted(c.items()))
        w(f"| {md_code(p['label'])} | {printed(by_label, thms, p)} | {sum(c.values())} | {where} |")
    w("")
    w("Notes for the rewrite:")
    w("")
    if outside:
        locs = sorted({x for v in outside.values() for x in v})
        files = collections.Counter(x.split(":")[0] for x in locs)
        w("- Cited outside a `//` or `#` comment (Python docstrings, strings that generators write")
        w("  into generated files, identifiers, test messages); check each before editing: "
          + ", ".join(f"{f} ({n} line{'s' if n > 1 else ''})" for f, n in sorted(files.items())) + ".")
    if generated:
        w("- Generated files: " + ", ".join(f"{f} (by {g})" for f, g in sorted(generated.items()))
          + "; change the generator's strings and regenerate rather than editing the output.")
    if other:
        w("- Other tracked files that contain labels: "
          + "; ".join(f"{md_code(l)} in " + ", ".join(sorted(c)) for l, c in sorted(other.items()))
          + ". The JSON keys of `bench/paper_tables.json` are data read by `bench/paper_tables.py`;"
          " `testdata/*` headers are written by the `testdata/gen_*.py` generators (edit the generator"
          " and regenerate, or leave them).")
    if unknown:
        w("- Label-shaped words that are not labels of the paper: "
          + "; ".join(f"{md_code(u)} at " + ", ".join(sorted(c)) + (f", {LIKELY[u]}" if u in LIKELY else "")
                      for u, c in sorted(unknown.items())) + ".")
    if mismatches:
        w("- A printed number written next to a label that does not match it (heuristic, same line):")
        for loc, l, text, verdict in mismatches:
            w(f"  - {loc}: \"{text}\" next to {md_code(l)}, which is {printed(by_label, thms, by_label[l])}"
              + (f" — {verdict}." if verdict else " — to fix."))
    w("")
    return "\n".join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("tex", help="the paper's .tex (arXiv source)")
    ap.add_argument("--aux", help="read this .aux (from a hyperref build for counters) instead of compiling")
    ap.add_argument("--no-latex", action="store_true", help="use the counter parser alone")
    ap.add_argument("--repo", default=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                    help="repository to scan for citations (default: this script's repository)")
    ap.add_argument("-o", "--output", help="output file, - for stdout (default: docs/paper-numbers.md)")
    args = ap.parse_args()

    tex = open(args.tex, encoding="utf-8").read()
    parsed, thms = parse(tex)
    if args.no_latex:
        source = "counter parser only, no LaTeX"
    else:
        aux = read_aux(open(args.aux, encoding="utf-8").read() if args.aux else compile_aux(args.tex))
        check(parsed, aux)
        source = "pdflatex .aux, cross-checked by the parser" + (f" ({os.path.basename(args.aux)})" if args.aux else "")
        for p in parsed:
            p["number"] = aux[p["label"]][0]
    labels = [p["label"] for p in parsed]
    missing = [l for l in labels if l not in DESCRIPTIONS]
    stale = [l for l in DESCRIPTIONS if l not in labels]
    if missing or stale:
        sys.exit(f"DESCRIPTIONS: missing {missing}, not in the paper {stale}")
    by_label = {p["label"]: p for p in parsed}
    out_path = args.output or os.path.join(args.repo, "docs", "paper-numbers.md")
    skip = {"docs/paper-numbers.md", "docs/paper_numbers.py"}
    md = render(parsed, thms, scan(args.repo, labels, by_label, skip), source)
    if out_path == "-":
        sys.stdout.write(md)
    else:
        with open(out_path, "w", encoding="utf-8") as f:
            f.write(md)
        print(f"{out_path}: {len(parsed)} labels", file=sys.stderr)


if __name__ == "__main__":
    main()
