#!/usr/bin/env bash
# Builds the image from the Dockerfile with podman or docker and checks it the way a deployment
# would use it: it starts as a non-root user, /healthz answers, an uploaded image lands in /data,
# and SIGTERM ends it within 10 seconds.
#   scripts/container-check.sh [--strict]
# Where no engine can run containers, it says so and exits 0, or 1 with --strict.
# CONTAINER_ENGINE picks the engine; NODE_IMAGE the base image (see the Dockerfile). podman's own
# settings (runtime, limits) come from containers.conf, or the file CONTAINERS_CONF names.
set -euo pipefail
cd "$(dirname "$0")/.."

strict=false
[ "${1:-}" = --strict ] && strict=true
PORT=${CONTAINER_CHECK_PORT:-4451}
TAG=charity-site:check
NAME=charity-site-check-$$

unavailable() {
  echo "container-check: no container engine can run containers here: $*" >&2
  $strict && exit 1
  exit 0
}
fail() {
  echo "container-check: FAILED: $*" >&2
  exit 1
}
ok() { echo "container-check: ok: $*"; }

engine=${CONTAINER_ENGINE:-$(command -v podman || command -v docker || true)}
[ -n "$engine" ] || unavailable "neither podman nor docker is installed."
"$engine" info >/dev/null 2>&1 || unavailable "\`$engine info\` fails: $("$engine" info 2>&1 | tail -1)"
base=${NODE_IMAGE:-$(sed -n 's/^ARG NODE_IMAGE=//p' Dockerfile)}
"$engine" run --rm "$base" true >/dev/null 2>&1 ||
  unavailable "\`$engine run $base true\` fails: $("$engine" run --rm "$base" true 2>&1 | tail -1)"
build_options=()
# podman builds OCI images by default, which cannot hold a HEALTHCHECK.
[ "$(basename "$engine")" = podman ] && build_options+=(--format docker)
build_options+=(--build-arg "NODE_IMAGE=$base")

echo "container-check: building $TAG with $engine ($(date +%T))"
started=$SECONDS
"$engine" build "${build_options[@]}" -t "$TAG" . || fail "the image does not build."
ok "built in $((SECONDS - started)) s; size $("$engine" image inspect --format '{{.Size}}' "$TAG" | awk '{ printf "%.0f MB", $1 / 1e6 }')"
"$engine" image inspect "$TAG" | grep -q '/healthz' || fail "the image has no health check."
ok "the image carries its health check"

volume=$NAME-data
cleanup() {
  "$engine" rm -f "$NAME" >/dev/null 2>&1 || true
  "$engine" volume rm -f "$volume" >/dev/null 2>&1 || true
}
trap cleanup EXIT
"$engine" volume create "$volume" >/dev/null
"$engine" run -d --name "$NAME" -p "127.0.0.1:$PORT:3000" -v "$volume:/data" \
  -e ADMIN_EMAIL=admin@example.org -e ADMIN_PASSWORD='correct horse battery' "$TAG" >/dev/null ||
  fail "the container does not start."
url=http://127.0.0.1:$PORT

uid=$("$engine" exec "$NAME" awk '/^Uid:/ { print $2 }' /proc/1/status)
[ -n "$uid" ] && [ "$uid" != 0 ] || fail "the server runs as root (uid ${uid:-unknown})."
ok "the server runs as uid $uid ($("$engine" exec "$NAME" id -un))"

# The first start migrates the database and adds the demo content.
status=000
for _ in $(seq 1 180); do
  status=$(curl -s -o /dev/null -w '%{http_code}' "$url/healthz" || true)
  [ "$status" = 200 ] && break
  [ "$("$engine" inspect --format '{{.State.Running}}' "$NAME")" = true ] || break
  sleep 1
done
[ "$status" = 200 ] || fail "/healthz answered $status; the container said:$(printf '\n')$("$engine" logs "$NAME" 2>&1 | tail -20)"
ok "/healthz answers 200"

cookie=$(curl -s -o /dev/null -D - -H "Origin: $url" --data-urlencode email=admin@example.org \
  --data-urlencode 'password=correct horse battery' "$url/login" | tr -d '\r' | awk -F'[ ;]' 'tolower($1) == "set-cookie:" && $2 ~ /^sid=/ { print $2 }')
[ -n "$cookie" ] || fail "signing in as the administrator did not give a session."
uploads_in_data() { "$engine" exec "$NAME" sh -c 'find /data/uploads -type f 2>/dev/null | wc -l'; }
before=$(uploads_in_data)
image=$(mktemp --suffix=.png)
trap 'rm -f "$image"; cleanup' EXIT
# A 640 x 480 picture, made here so that the check needs nothing but python3.
python3 - "$image" <<'PY' || fail "python3 could not make the test picture."
import struct, sys, zlib
w, h = 640, 480
rows = b''.join(b'\0' + bytes(v for x in range(w) for v in (x * 255 // w, y * 255 // h, 128)) for y in range(h))
chunk = lambda kind, data: struct.pack('>I', len(data)) + kind + data + struct.pack('>I', zlib.crc32(kind + data))
png = b'\x89PNG\r\n\x1a\n' + chunk(b'IHDR', struct.pack('>IIBBBBB', w, h, 8, 2, 0, 0, 0)) + chunk(b'IDAT', zlib.compress(rows)) + chunk(b'IEND', b'')
open(sys.argv[1], 'wb').write(png)
PY
status=$(curl -s -o /dev/null -w '%{http_code} %{redirect_url}' -H "Origin: $url" -b "$cookie" \
  -F 'title=Checked in a container' -F 'content=An article with a picture.' -F 'imageAlt=A gradient' \
  -F "image=@$image;type=image/png" "$url/admin/news/new")
[ "$status" = "302 $url/admin/news" ] || fail "posting an article with a picture answered $status."
after=$(uploads_in_data)
[ "$after" -gt "$before" ] || fail "the picture was accepted but no file appeared under /data/uploads."
ok "an uploaded picture landed in /data ($before files under /data/uploads before, $after after, owned by $("$engine" exec "$NAME" sh -c 'stat -c %U $(find /data/uploads -type f | head -1)'))"

"$engine" kill --signal TERM "$NAME" >/dev/null
signalled=$(date +%s%N)
stopped=false
for _ in $(seq 1 100); do
  [ "$("$engine" inspect --format '{{.State.Running}}' "$NAME")" = false ] && stopped=true && break
  sleep 0.1
done
$stopped || fail "still running 10 s after SIGTERM."
ok "SIGTERM ended it in $((($(date +%s%N) - signalled) / 1000000)) ms with exit code $("$engine" inspect --format '{{.State.ExitCode}}' "$NAME")"
echo "container-check: all checks passed"
