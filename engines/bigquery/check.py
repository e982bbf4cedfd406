"""
BigQuery's scripts of `impact-service sql --engine bigquery`, read as GoogleSQL by sqlglot (the
closest implementation of BigQuery's dialect reachable here: no BigQuery, and no emulator that
builds in reasonable time; docs/billing.md, "BigQuery"). Each statement is parsed with BigQuery's
grammar (an error raised, never skipped), then written in DuckDB's dialect, which the comparison
(test/billing/engines/bigquery.test.ts) runs over a table of Google's nested billing export
schema. What BigQuery alone would say stays unchecked: its type checker's refusals, its
functions' own rounding, and its limits.

  python engines/bigquery/check.py < script.sql   ->   {"statements": ["...DuckDB SQL...", ...]}
"""

import json
import sys

import sqlglot
from sqlglot import exp


def main():
    script = sys.stdin.read()
    try:
        parsed = sqlglot.parse(script, read="bigquery", error_level=sqlglot.ErrorLevel.RAISE)
    except sqlglot.errors.ParseError as error:
        print(json.dumps({"error": f"not GoogleSQL: {error}"}))
        return
    statements = []
    for statement in parsed:
        if statement is None:
            continue
        # BigQuery's temporary table lives as long as the multi-statement query; DuckDB's as the connection
        statements.append(statement.sql(dialect="duckdb", unsupported_level=sqlglot.ErrorLevel.RAISE))
    print(json.dumps({"statements": statements, "sqlglot": sqlglot.__version__}))


if __name__ == "__main__":
    main()
