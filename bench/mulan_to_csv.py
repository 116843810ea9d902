#!/usr/bin/env python3
"""Convert six Mulan multi-target regression sets from ARFF to CSV.

Reads data/multi-target/NAME.arff of the Mulan repository
(github.com/tsoumakas/mulan) straight from a local git directory of it,
at a given commit, and writes data/multi/NAME.csv for NAME in slump, jura,
edm, wq, atp1d and oes97 only: the other sets in that folder are kept back
to check the multi-target recipe on data nobody tuned it for, so this
script never opens them.

The CSV has one header line (the ARFF attribute names as Weka reads them:
an outer pair of quotes removed, nothing else changed), then one line per
ARFF data row in the file's order, each field the ARFF text with the
spaces around it removed (no number is reparsed or rounded). Mulan puts
the targets last (mulan.data.MultiLabelInstances: "the label attributes
in ARFF data are assumed to be the last ones"); how many there are comes
from Mulan's data/multi-target/README.md and is checked here against the
attribute count that README gives as features. The script refuses
anything it does not expect: a non-numeric attribute, sparse rows, a row
of the wrong length, a field that is not a finite decimal number, or
missing values ("?"), which none of the six has.

It prints, per set, rows × features × targets, the target names and the
SHA-256 of the CSV written, the figures data/multi/README.md records.

Usage:
    python3 bench/mulan_to_csv.py --git-dir /path/to/mulan.git \
        [--commit 43f6389095ad71984264db4387a8074b22bc7d4a] [--out data/multi]
"""
import argparse
import csv
import hashlib
import io
import math
import os
import subprocess
import sys

# Number of targets (the last attributes) and of features per set, as
# Mulan's data/multi-target/README.md lists them.
SETS = {
    "slump": (3, 7),
    "jura": (3, 15),
    "edm": (2, 16),
    "wq": (14, 16),
    "atp1d": (6, 411),
    "oes97": (16, 263),
}

COMMIT = "43f6389095ad71984264db4387a8074b22bc7d4a"


def unquote(name):
    """Return an ARFF attribute name without its outer quotes."""
    if len(name) >= 2 and name[0] == name[-1] and name[0] in "'\"":
        return name[1:-1]
    return name


def split_attribute(rest):
    """Split the text after @attribute into (name, type)."""
    rest = rest.strip()
    if rest[0] in "'\"":
        end = rest.index(rest[0], 1)
        return rest[: end + 1], rest[end + 1:].strip()
    name, _, typ = rest.partition(" ")
    if not typ:
        name, _, typ = rest.partition("\t")
    return name, typ.strip()


def parse_arff(text, where):
    """Return (names, rows) of a dense, all-numeric ARFF file's text."""
    names, rows, in_data = [], [], False
    for lineno, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("%"):
            continue
        if not in_data:
            key = line.split(None, 1)[0].lower()
            if key == "@attribute":
                name, typ = split_attribute(line.split(None, 1)[1])
                if typ.lower() not in ("numeric", "real", "integer"):
                    sys.exit(f"{where}:{lineno}: attribute {name} is {typ}, not numeric")
                names.append(unquote(name))
            elif key == "@data":
                in_data = True
            elif key != "@relation":
                sys.exit(f"{where}:{lineno}: unexpected header line {line[:40]!r}")
            continue
        if line.startswith("{"):
            sys.exit(f"{where}:{lineno}: sparse row, not supported")
        fields = [f.strip() for f in line.split(",")]
        if len(fields) != len(names):
            sys.exit(f"{where}:{lineno}: {len(fields)} fields, want {len(names)}")
        for col, f in enumerate(fields):
            if f == "?":
                sys.exit(f"{where}:{lineno}: missing value in column {names[col]}")
            try:
                ok = math.isfinite(float(f))
            except ValueError:
                ok = False
            if not ok:
                sys.exit(f"{where}:{lineno}: column {names[col]}: {f!r} is not a finite number")
        rows.append(fields)
    if len(set(names)) != len(names):
        sys.exit(f"{where}: duplicate attribute names")
    return names, rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--git-dir", required=True, help="git directory of github.com/tsoumakas/mulan")
    ap.add_argument("--commit", default=COMMIT)
    ap.add_argument("--out", default="data/multi")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for name, (targets, features) in SETS.items():
        path = f"data/multi-target/{name}.arff"
        text = subprocess.run(["git", "--git-dir", args.git_dir, "show", f"{args.commit}:{path}"],
                              check=True, capture_output=True, text=True).stdout
        names, rows = parse_arff(text, path)
        if len(names) != targets + features:
            sys.exit(f"{path}: {len(names)} attributes, want {features} features + {targets} targets")
        buf = io.StringIO()
        w = csv.writer(buf, lineterminator="\n")
        w.writerow(names)
        w.writerows(rows)
        data = buf.getvalue().encode()
        with open(os.path.join(args.out, name + ".csv"), "wb") as f:
            f.write(data)
        print(f"{name}: {len(rows)} rows × {features} features × {targets} targets; "
              f"targets {', '.join(names[-targets:])}; sha256 {hashlib.sha256(data).hexdigest()}")


if __name__ == "__main__":
    main()
