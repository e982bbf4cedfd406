"""
The engines' side of the billing comparisons (test/billing/engines/): one process per engine and
test run, started once, that runs every fixture's statements in the same session and writes what
they store. It reads requests, one JSON object a line, on its standard input and answers each on
its standard output with one line starting with "@@" (the engine's own logging may write other
lines there):

  {"id": 7, "session": "c3", "script": "<statements separated by ;>", "query": "SELECT ...",
   "out": "/path/rows.json"}
  -> @@{"id": 7, "ok": true, "rows": N}  |  @@{"id": 7, "error": "..."}

`script` runs statement by statement (the engine's rules for texts and names read where a
statement ends); then `query`, whose columns and rows are written to `out` as JSON (numbers as
Python's shortest repr, which reads back to the same double; records as objects; times as ISO
text). It answers "@@{"ready": ...}" once its engine is up.

Each request runs on a thread of its own, so that several fixtures are planned at once (planning
a script's steps is most of what a fixture costs, on one core per query). A request names its
session: its own temporary views and current schema (Spark: a session of the one context and a
database of that name; Trino: a connection whose schema is that name), so that fixtures run side
by side never see each other's tables; one session's requests come one after the other.

  python engines/runner.py spark [--delta-jars a.jar,b.jar]
  python engines/runner.py trino --port N
"""

import argparse
import datetime
import decimal
import json
import os
import sys
import threading


def statements(script, backslash_escapes):
    """The statements of a script: split at each ; outside texts, quoted names and comments."""
    found, current, index, quote = [], [], 0, None
    while index < len(script):
        char = script[index]
        if quote is not None:
            current.append(char)
            if backslash_escapes and char == "\\" and quote == "'" and index + 1 < len(script):
                current.append(script[index + 1])
                index += 1
            elif char == quote:
                quote = None
        elif char in "'\"`":
            quote = char
            current.append(char)
        elif script.startswith("--", index):
            end = script.find("\n", index)
            index = len(script) if end < 0 else end
            continue
        elif char == ";":
            found.append("".join(current).strip())
            current = []
        else:
            current.append(char)
        index += 1
    found.append("".join(current).strip())
    return [statement for statement in found if statement]


def plain(value):
    """A value as JSON holds it: records as objects, lists as lists, times as ISO text."""
    kind = type(value).__name__
    if kind == "Row":
        # Spark's record (a tuple)
        return plain(value.asDict(recursive=True))
    if kind == "NamedRowTuple":
        # Trino's client's record (a tuple whose unknown attributes are None)
        return {name: plain(item) for name, item in zip(value.__annotations__["names"], value)}
    if isinstance(value, dict):
        return {key: plain(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [plain(item) for item in value]
    if isinstance(value, (datetime.datetime, datetime.date, datetime.time)):
        return value.isoformat()
    if isinstance(value, decimal.Decimal):
        return float(value)
    return value


class Spark:
    """Spark in local mode, one context: a session of it for each session a request names."""

    backslash_escapes = True

    def __init__(self, options):
        from pyspark.sql import SparkSession

        builder = (
            SparkSession.builder.master("local[2]")
            .appName("impact-service billing comparisons")
            .config("spark.ui.enabled", "false")
            .config("spark.sql.warehouse.dir", options.warehouse)
        )
        # Spark's scratch files (its block manager's folders) and the JVM's (the native libraries
        # snappy, lz4 and zstd unpack at each start) in TMPDIR when it is set: a JVM ended with its
        # process group deletes none of them, and the caller removes TMPDIR after
        temp = os.environ.get("TMPDIR")
        temp_option = f" -Djava.io.tmpdir={temp}" if temp else ""
        if temp:
            builder = builder.config("spark.local.dir", temp)
        if options.spark_defaults:
            # The bench (bench/sparkScript.ts): Spark as a team runs it, memory for a large bill
            builder = builder.config("spark.driver.memory", os.environ.get("SPARK_DRIVER_MEMORY", "4g"))
            if temp:
                builder = builder.config("spark.driver.extraJavaOptions", temp_option.strip())
        else:
            builder = (
                builder.config("spark.driver.memory", "1g")
                # A task's memory for its aggregations, joins and sorts in pages of 1 MB, not the
                # 8 MB Spark derives from 1 GB on two cores: a page is allocated whole and zeroed
                # however few its rows, and at 8 MB they filled the old generation (34-36 full
                # collections a run, 7 with these pages and -Xms below); a page's size is memory
                # bookkeeping, not what a query answers
                .config("spark.buffer.pageSize", "1m")
                # A fixture is a few dozen lines: two partitions rather than 200 per shuffle
                .config("spark.sql.shuffle.partitions", "2")
                # A fixture's few dozen lines cost nothing to run; what costs is planning the
                # scripts' steps, again for each statement. None of these changes what a query
                # answers: plans and expressions run interpreted (not compiled to Java by Janino:
                # seconds per statement),
                # without adaptive re-planning between stages, and a view keeps its analysed plan
                # rather than its text (each step reads the views before it: analysed again at
                # every step otherwise).
                .config("spark.sql.codegen.wholeStage", "false")
                .config("spark.sql.codegen.factoryMode", "NO_CODEGEN")
                .config("spark.sql.adaptive.enabled", "false")
                .config("spark.sql.legacy.storeAnalyzedPlanForView", "true")
                # Nor these, planning work a few dozen lines never repay: the filters inferred
                # from every step's constraints (re-derived at each of the script's many steps),
                # runtime bloom filters and partition pruning built for joins
                .config("spark.sql.constraintPropagation.enabled", "false")
                .config("spark.sql.optimizer.runtime.bloomFilter.enabled", "false")
                .config("spark.sql.optimizer.dynamicPartitionPruning.enabled", "false")
                # and the cached lookup table held as it is, not compressed
                .config("spark.sql.inMemoryColumnarStorage.compressed", "false")
                # Nor Spark's check of a plan's integrity after every rule (on by default, a walk
                # of the whole plan at each rule: the scripts' plans are large): a check of
                # Spark's own rules, not of what a query answers; the file's CPU 197 -> 180 s
                .config("spark.sql.lightweightPlanChangeValidation", "false")
                # A session of a few minutes: the JVM compiles Spark's own code once, quickly
                # (C1 only), rather than again with C2's costlier optimisations, and defines its
                # classes without the bytecode verifier (a check of the class files' code, not of
                # what they compute: CPU spent at each class loaded). Its code cache is twice
                # Java 17's default: the eleven cases in one JVM once filled those 240 MB (`Out
                # of space in CodeCache for method handle intrinsic`, a case's CREATE TABLE failing).
                # Its heap is its whole gigabyte from the start (-Xms1g): the serial collector
                # grows the old generation only through a full collection
                .config(
                    "spark.driver.extraJavaOptions",
                    "-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xms1g -XX:ReservedCodeCacheSize=480m"
                    " -XX:+UnlockDiagnosticVMOptions -XX:-BytecodeVerificationRemote" + temp_option,
                )
                .config("spark.ui.showConsoleProgress", "false")
            )
        if options.delta_jars:
            builder = (
                builder.config("spark.jars", options.delta_jars)
                .config("spark.sql.extensions", "io.delta.sql.DeltaSparkSessionExtension")
                .config("spark.sql.catalog.spark_catalog", "org.apache.spark.sql.delta.catalog.DeltaCatalog")
            )
        self.main = builder.getOrCreate()
        self.main.sparkContext.setLogLevel("ERROR")
        self.version = self.main.version

    def session(self, name):
        """A session of the one context whose tables are written to the database `name`."""
        session = self.main.newSession()
        session.sql(f"CREATE DATABASE IF NOT EXISTS `{name}`").collect()
        session.sql(f"USE `{name}`").collect()
        return session

    @staticmethod
    def run(session, statement):
        session.sql(statement).collect()

    @staticmethod
    def rows(session, query):
        frame = session.sql(query)
        return frame.columns, [[plain(value) for value in row] for row in frame.collect()]


class Trino:
    """A Trino server's sessions through its Python client (the memory catalog)."""

    backslash_escapes = False

    def __init__(self, options):
        import trino

        self.connect = lambda schema: trino.dbapi.connect(
            host="127.0.0.1", port=options.port, user="impact", catalog="memory", schema=schema
        )
        cursor = self.connect("default").cursor()
        cursor.execute("SELECT version()")
        self.version = cursor.fetchone()[0]

    def session(self, name):
        """A connection whose unqualified names are the memory catalog's schema `name`."""
        return self.connect(name)

    @staticmethod
    def run(connection, statement):
        cursor = connection.cursor()
        cursor.execute(statement)
        cursor.fetchall()

    @staticmethod
    def rows(connection, query):
        cursor = connection.cursor()
        cursor.execute(query)
        rows = cursor.fetchall()
        columns = [column[0] for column in cursor.description]
        return columns, [[plain(value) for value in row] for row in rows]


def serve(engine):
    printing = threading.Lock()

    def answer(document):
        with printing:
            print("@@" + json.dumps(document), flush=True)

    sessions = {}
    opening = threading.Lock()

    def session(name):
        with opening:
            if name not in sessions:
                sessions[name] = engine.session(name)
            return sessions[name]

    def handle(request):
        try:
            on = session(request["session"])
            for statement in statements(request.get("script", ""), engine.backslash_escapes):
                try:
                    engine.run(on, statement)
                except Exception as error:
                    raise RuntimeError(f"{error}\n-- in the statement:\n{statement[:4000]}") from None
            count = 0
            if request.get("query"):
                columns, rows = engine.rows(on, request["query"])
                with open(request["out"], "w", encoding="utf-8") as out:
                    json.dump({"columns": columns, "rows": rows}, out, allow_nan=False)
                count = len(rows)
            answer({"id": request["id"], "ok": True, "rows": count})
        except Exception as error:
            answer({"id": request["id"], "error": str(error)[-8000:]})

    answer({"ready": True, "version": engine.version})
    for line in sys.stdin:
        if line.strip():
            threading.Thread(target=handle, args=(json.loads(line),), daemon=True).start()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("engine", choices=["spark", "trino"])
    parser.add_argument("--port", type=int)
    parser.add_argument("--warehouse", default="spark-warehouse")
    parser.add_argument("--delta-jars", default="")
    parser.add_argument("--spark-defaults", action="store_true")
    options = parser.parse_args()
    serve(Spark(options) if options.engine == "spark" else Trino(options))


if __name__ == "__main__":
    main()
