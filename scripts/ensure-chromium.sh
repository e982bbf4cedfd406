#!/usr/bin/env bash
# Run by `npm test` (pretest): the browser test drives Debian's chromium through playwright-core,
# which downloads no browser. Installs the Debian package when it is missing, so that the README's
# test command is the whole set-up on a fresh machine. Never fails the test run itself: without
# chromium the browser test fails with its own explanation.
set -u
[ -x /usr/bin/chromium ] && exit 0
command -v apt-get >/dev/null 2>&1 || { echo "ensure-chromium: no apt-get; install chromium by hand" >&2; exit 0; }
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo -n"
export DEBIAN_FRONTEND=noninteractive
echo "ensure-chromium: installing Debian's chromium for the browser test" >&2
$SUDO apt-get update -q >&2 && $SUDO apt-get install -y -q --no-install-recommends chromium >&2 \
  || echo "ensure-chromium: could not install chromium" >&2
exit 0
