#!/bin/sh
# Makes the deployment's certificates (the compose file's `certs` service), into three folders:
#   CA_DIR     the CA (ca.crt, ca.key), which signs the instances' serving certificate and the clients' certificates;
#              the `ca` volume, mounted in this job only, so that no instance can read the CA's key
#   CERTS_DIR  what the instances mount read-only: ca.crt (they trust client certificates it signed), their
#              serving certificate (server.crt, server.key) for the names in SERVER_NAMES, and the one key all of
#              them sign and verify service account tokens with (sa.key)
#   ADMIN_DIR  a folder of the user's (./.compose): admin.kubeconfig, an administrator's credential (CN pgkube-admin,
#              group system:masters) for the load balancer at KUBECONFIG_SERVER, with the CA and the client
#              certificate and key embedded; and ca.crt, to check the server's certificate with other clients
# Run again, it makes only what is missing: deleting admin.kubeconfig gets a new one from the same CA.
set -eu
CA_DIR="${CA_DIR:?the folder of the CA}"
CERTS_DIR="${CERTS_DIR:?the folder the instances mount}"
ADMIN_DIR="${ADMIN_DIR:?the folder for the administrator's kubeconfig}"
SERVER_NAMES="${SERVER_NAMES:-DNS:localhost,IP:127.0.0.1}"
KUBECONFIG_SERVER="${KUBECONFIG_SERVER:-https://127.0.0.1:6443}"
# the uid the server runs as in the image (the node image's `node` user), which must read the serving key
SERVER_UID="${SERVER_UID:-1000}"
# who gets the kubeconfig: by default the owner of this script, which compose mounts from the user's checkout
ADMIN_OWNER="${ADMIN_OWNER:-$(stat -c %u:%g "$0")}"
umask 077

# A key and a certificate signed by the CA, in the current folder: issue <file name> <subject> [-addext <extension>]...
issue() {
  name="$1" subject="$2"
  shift 2
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$name.key" -out "$name.csr" -subj "$subject" "$@"
  openssl x509 -req -in "$name.csr" -CA "$CA_DIR/ca.crt" -CAkey "$CA_DIR/ca.key" -CAcreateserial -days 825 -out "$name.crt" -copy_extensions copy
  rm "$name.csr"
}
base64_of() { openssl base64 -A -in "$1"; }

if [ -f "$CA_DIR/ca.key" ]; then
  echo "CA already in $CA_DIR"
elif [ -f "$CERTS_DIR/ca.key" ]; then
  # an earlier layout kept the CA beside the serving certificate, in the instances' volume: moved out of their reach
  mv "$CERTS_DIR/ca.key" "$CERTS_DIR/ca.crt" "$CA_DIR/"
  rm -f "$CERTS_DIR/ca.srl"
  echo "CA moved from $CERTS_DIR to $CA_DIR"
else
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -keyout "$CA_DIR/ca.key" -out "$CA_DIR/ca.crt" -days 3650 -subj "/CN=pgkube-ca"
  rm -f "$CERTS_DIR/server.crt" "$ADMIN_DIR/admin.kubeconfig" # made with another CA, if any
  echo "CA made in $CA_DIR"
fi
cp "$CA_DIR/ca.crt" "$CERTS_DIR/ca.crt"
chmod 644 "$CA_DIR/ca.crt" "$CERTS_DIR/ca.crt"

if [ -f "$CERTS_DIR/server.crt" ]; then
  echo "serving certificate already in $CERTS_DIR"
else
  (cd "$CERTS_DIR" && issue server /CN=pgkube -addext "subjectAltName=$SERVER_NAMES" -addext extendedKeyUsage=serverAuth)
  chmod 644 "$CERTS_DIR/server.crt"
  chown "$SERVER_UID" "$CERTS_DIR/server.key" 2>/dev/null || echo "could not give server.key to uid $SERVER_UID (not root): the server must run as $(id -u)"
  echo "serving certificate made in $CERTS_DIR"
fi

if [ -f "$CERTS_DIR/sa.key" ]; then
  echo "service account signing key already in $CERTS_DIR"
else
  openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$CERTS_DIR/sa.key"
  chown "$SERVER_UID" "$CERTS_DIR/sa.key" 2>/dev/null || echo "could not give sa.key to uid $SERVER_UID (not root): the server must run as $(id -u)"
  echo "service account signing key made in $CERTS_DIR"
fi

if [ -f "$ADMIN_DIR/admin.kubeconfig" ]; then
  echo "administrator's kubeconfig already in $ADMIN_DIR"
else
  work="$(mktemp -d)"
  trap 'rm -rf "$work"' EXIT
  (cd "$work" && issue admin /CN=pgkube-admin/O=system:masters -addext extendedKeyUsage=clientAuth)
  cat > "$work/admin.kubeconfig" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: pgkube
  cluster:
    server: $KUBECONFIG_SERVER
    certificate-authority-data: $(base64_of "$CA_DIR/ca.crt")
users:
- name: pgkube-admin
  user:
    client-certificate-data: $(base64_of "$work/admin.crt")
    client-key-data: $(base64_of "$work/admin.key")
contexts:
- name: pgkube-admin@pgkube
  context:
    cluster: pgkube
    user: pgkube-admin
current-context: pgkube-admin@pgkube
EOF
  cp "$CA_DIR/ca.crt" "$ADMIN_DIR/ca.crt"
  chmod 644 "$ADMIN_DIR/ca.crt"
  # the kubeconfig is a credential: readable by its owner only (mode 600 from the umask)
  mv "$work/admin.kubeconfig" "$ADMIN_DIR/admin.kubeconfig"
  chmod 700 "$ADMIN_DIR"
  chown "$ADMIN_OWNER" "$ADMIN_DIR" "$ADMIN_DIR/admin.kubeconfig" "$ADMIN_DIR/ca.crt" 2>/dev/null \
    || echo "could not give $ADMIN_DIR to $ADMIN_OWNER (not root): it belongs to $(id -u)"
  echo "administrator's kubeconfig made in $ADMIN_DIR/admin.kubeconfig, for $KUBECONFIG_SERVER"
fi
