"""Reads every CSV of an unzipped study export with pandas and checks it against codebook.csv.

Usage: python3 read-export.py <folder>. Prints one JSON object (what each file read as) and exits 0, or
prints what is wrong and exits 1. Two reads per file, both as the README shows them:
- plain pd.read_csv: every integer, number, boolean and timestamp column's inferred dtype fits its
  codebook type (text is only read right with its dtype: "42" looks like a number);
- read with the codebook's dtypes (text: string, integer: Int64, number: float64, boolean: boolean,
  timestamp: parsed to UTC datetimes): it parses, and every non-nullable column has no missing value.
"""
import json
import sys
from pathlib import Path

import pandas as pd

folder = Path(sys.argv[1])
codebook = pd.read_csv(folder / "codebook.csv", dtype=str, keep_default_na=False)
problems = []
report = {}

DTYPES = {"text": "string", "integer": "Int64", "number": "float64", "boolean": "boolean"}


def plain_fits(series, kind, nullable):
    dtype = str(series.dtype)
    missing = series.isna().all()
    if missing and nullable:
        return True  # an all-empty column reads as float64 NaN whatever its type
    if kind == "integer":
        return dtype == "int64" or (nullable and dtype == "float64" and (series.dropna() % 1 == 0).all())
    if kind == "number":
        return dtype in ("float64", "int64")
    if kind == "boolean":
        return dtype == "bool"
    if kind == "timestamp":
        return dtype == "object"
    if kind == "text":
        # Inference reads a text that looks like a number ("42", a version "133.0") as one: text
        # columns are read with the codebook's dtype (the second read), as the README says.
        return True
    return False


for path in sorted(folder.glob("*.csv")):
    rows = codebook[codebook["file"] == path.name]
    if rows.empty:
        problems.append(f"{path.name}: not in the codebook")
        continue
    columns = list(rows["column"])
    plain = pd.read_csv(path)
    if list(plain.columns) != columns:
        problems.append(f"{path.name}: header {list(plain.columns)} is not the codebook's {columns}")
        continue
    types = dict(zip(rows["column"], rows["type"]))
    nullable = dict(zip(rows["column"], rows["nullable"] == "true"))
    if len(plain) > 0:
        for name in columns:
            if not plain_fits(plain[name], types[name], nullable[name]):
                problems.append(f"{path.name}.{name}: read as {plain[name].dtype}, the codebook says {types[name]}")
    typed = pd.read_csv(
        path,
        dtype={n: DTYPES[t] for n, t in types.items() if t in DTYPES},
        keep_default_na=False,
        na_values={n: [""] for n in columns},
    )
    for name in columns:
        if types[name] == "timestamp":
            typed[name] = pd.to_datetime(typed[name], utc=True, errors="raise")
        if not nullable[name] and typed[name].isna().any():
            problems.append(f"{path.name}.{name}: empty cells in a column the codebook says is never empty")
    report[path.name] = {"rows": len(typed), "dtypes": {n: str(typed[n].dtype) for n in columns}}

if problems:
    print("\n".join(problems))
    sys.exit(1)
print(json.dumps(report))
