#!/bin/sh
# Makes the deployment's certificates once, into CERTS_DIR (the compose file's `certs` volume, /certs): a CA
# (ca.crt, ca.key) that signs both the instances' serving certificate (server.crt, server.key, for the names in
# SERVER_NAMES) and the clients' certificates, which operators make with it (docs/operations.md). Run again, it
# leaves existing certificates alone.
set -eu
CERTS_DIR="${CERTS_DIR:-/certs}"
SERVER_NAMES="${SERVER_NAMES:-DNS:localhost,IP:127.0.0.1}"
# the uid the server runs as in the image (the node image's `node` user), which must read the serving key
SERVER_UID="${SERVER_UID:-1000}"
cd "$CERTS_DIR"
if [ -f server.crt ]; then
  echo "certificates already in $CERTS_DIR"
  exit 0
fi
umask 077
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout ca.key -out ca.crt -days 3650 -subj "/CN=pgkube-ca"
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout server.key -out server.csr -subj "/CN=pgkube" \
  -addext "subjectAltName=$SERVER_NAMES" -addext "extendedKeyUsage=serverAuth"
openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -days 825 -out server.crt -copy_extensions copy
rm server.csr
chmod 644 ca.crt server.crt
chown "$SERVER_UID" server.key 2>/dev/null || echo "could not give server.key to uid $SERVER_UID (not root): the server must run as $(id -u)"
echo "certificates made in $CERTS_DIR"
