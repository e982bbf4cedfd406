#!/usr/bin/env bash
# Run by `npm test` (pretest): installs the engines the billing comparisons run the scripts of
# `impact-service sql` on (test/billing/engines/, docs/billing.md "Beyond one machine"), at the
# versions engines/versions.env pins, into a cache outside the repository
# (IMPACT_ENGINES_CACHE, default ~/.cache/impact-service/engines), each with its ordinary client:
#   - Python packages with pip (engines/requirements.txt, every file's sha256 checked): pyspark
#     (Spark in local mode, on the default Java), Trino's client, sqlglot. pyspark is a source
#     distribution: what it builds with is engines/build-requirements.txt, installed first (hashes
#     checked too), and the build runs without isolation on those alone; pip's cache is not used,
#     so a wheel built on this machine before cannot stand in for the build;
#   - Trino's server (trino-server-core, the Hive and memory connectors' plugins) and Delta Lake's
#     jars for Spark (the Unity Catalog case) with Maven (`mvn dependency:copy` by coordinates,
#     checksums strict), each file's SHA-1 checked again against versions.env, Trino run on Java 25.
# What is installed is kept (a marker per part); a second run costs a few file checks. Runs
# holding the cache at once wait for each other (flock). Never fails the test run itself: a part
# that cannot be installed is said here and in its marker's place, and the tests that need it
# fail with that reason. docs/billing.md ("Installing the engines") says how to prove the install
# on an empty cache.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cache=${IMPACT_ENGINES_CACHE:-$HOME/.cache/impact-service/engines}
mkdir -p "$cache" || { echo "ensure-engines: cannot create $cache" >&2; exit 0; }

# KEY=VALUE lines only: the file is data, not a script
while IFS='=' read -r key value; do
  [[ $key =~ ^[A-Z0-9_]+$ ]] && printf -v "$key" '%s' "$value"
done <"$root/engines/versions.env"

exec 9>"$cache/.lock"
flock 9

say() { echo "ensure-engines: $*" >&2; }

# fetch GROUP:ARTIFACT:VERSION:TYPE SHA1 DEST: an artifact copied by Maven from its coordinates
# (the local repository in the cache), its SHA-1 checked before it is kept as DEST
fetch() {
  local coordinates=$1 sha1=$2 dest=$3 staging
  [ -f "$dest" ] && return 0
  staging=$(mktemp -d "$cache/.fetch.XXXXXX") || return 1
  say "copying $coordinates with Maven"
  if ! timeout 1800 mvn -B -q --no-transfer-progress --strict-checksums \
    -Dmaven.repo.local="$cache/maven" \
    "org.apache.maven.plugins:maven-dependency-plugin:$MAVEN_DEPENDENCY_PLUGIN_VERSION:copy" \
    -Dartifact="$coordinates" -DoutputDirectory="$staging" >&2; then
    rm -rf "$staging"
    return 1
  fi
  local copied=("$staging"/*)
  if ! echo "$sha1  ${copied[0]}" | sha1sum -c --quiet - >&2; then
    rm -rf "$staging"
    say "$coordinates: SHA-1 is not $sha1"
    return 1
  fi
  mv "${copied[0]}" "$dest" && rm -rf "$staging"
}

# part NAME DIR COMMAND...: COMMAND builds DIR unless DIR/.installed is there; a failure is
# written to DIR.failed (what the tests report)
part() {
  local name=$1 dir=$2
  shift 2
  [ -f "$dir/.installed" ] && return 0
  rm -rf "$dir" "$dir.failed"
  mkdir -p "$dir"
  local log
  log=$(mktemp)
  if "$@" >"$log" 2>&1; then
    touch "$dir/.installed"
    say "$name installed in $dir"
  else
    { echo "$name could not be installed by scripts/ensure-engines.sh:"; tail -20 "$log"; } >"$dir.failed"
    cat "$dir.failed" >&2
  fi
  rm -f "$log"
}

install_python() {
  local dir=$1
  local pip=("$dir/bin/pip" install --quiet --disable-pip-version-check --no-cache-dir --require-hashes)
  python3 -m venv "$dir" &&
    timeout 1800 "${pip[@]}" --no-deps -r "$root/engines/build-requirements.txt" &&
    timeout 1800 "${pip[@]}" --no-build-isolation -r "$root/engines/requirements.txt"
}

install_trino() {
  local dir=$1 downloads="$cache/downloads"
  mkdir -p "$downloads" &&
    fetch "io.trino:trino-server-core:$TRINO_VERSION:tar.gz" \
      "$TRINO_SERVER_SHA1" "$downloads/trino-server-core-$TRINO_VERSION.tar.gz" &&
    fetch "io.trino:trino-hive:$TRINO_VERSION:zip" \
      "$TRINO_HIVE_SHA1" "$downloads/trino-hive-$TRINO_VERSION.zip" &&
    fetch "io.trino:trino-memory:$TRINO_VERSION:zip" \
      "$TRINO_MEMORY_SHA1" "$downloads/trino-memory-$TRINO_VERSION.zip" &&
    tar xzf "$downloads/trino-server-core-$TRINO_VERSION.tar.gz" -C "$dir" --strip-components=1 &&
    python3 -m zipfile -e "$downloads/trino-hive-$TRINO_VERSION.zip" "$dir/plugin" &&
    mv "$dir/plugin/trino-hive-$TRINO_VERSION" "$dir/plugin/hive" &&
    python3 -m zipfile -e "$downloads/trino-memory-$TRINO_VERSION.zip" "$dir/plugin" &&
    mv "$dir/plugin/trino-memory-$TRINO_VERSION" "$dir/plugin/memory" &&
    rm -f "$downloads"/trino-*-"$TRINO_VERSION".* &&
    rm -rf "$cache/maven/io/trino"
}

install_delta() {
  local dir=$1
  fetch "io.delta:delta-spark_2.13:$DELTA_VERSION:jar" \
    "$DELTA_SPARK_SHA1" "$dir/delta-spark_2.13-$DELTA_VERSION.jar" &&
    fetch "io.delta:delta-storage:$DELTA_VERSION:jar" \
      "$DELTA_STORAGE_SHA1" "$dir/delta-storage-$DELTA_VERSION.jar" &&
    rm -rf "$cache/maven/io/delta"
}

# the Python part's folder is named by both requirement files: a change to either installs anew
requirements=$(cat "$root/engines/build-requirements.txt" "$root/engines/requirements.txt" | sha256sum | cut -c1-12)
# pip's part beside Maven's: they share nothing but the lock this script holds, and each waits
# mostly on its downloads (pyspark's build on one core). Trino's and Delta's parts one after the
# other: both write Maven's local repository.
part "Python packages (pyspark $SPARK_VERSION, sqlglot $SQLGLOT_VERSION, trino client)" \
  "$cache/python-$requirements" install_python "$cache/python-$requirements" &
python_part=$!
part "Trino $TRINO_VERSION" "$cache/trino-server-$TRINO_VERSION" install_trino "$cache/trino-server-$TRINO_VERSION"
part "Delta Lake $DELTA_VERSION" "$cache/delta-$DELTA_VERSION" install_delta "$cache/delta-$DELTA_VERSION"
wait "$python_part"
command -v mvn >/dev/null || say "no mvn on PATH: Trino's server and Delta's jars cannot be copied"
[ -x "$JAVA_FOR_TRINO/bin/java" ] || say "no Java at $JAVA_FOR_TRINO (Trino $TRINO_VERSION runs on Java 25): the Trino comparison will fail"
exit 0
