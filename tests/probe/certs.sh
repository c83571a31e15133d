#!/bin/sh
# Certificates for the probe's STARTTLS tests, made with openssl(1) into
# OUTDIR: a test authority and, as NAME.pem with its key NAME.key,
#   good     for localhost (and 127.0.0.1, ::1), issued by the authority
#   self     the same names, signed by itself
#   expired  the same names, issued by the authority, valid only in 2020
#   other    for other.example only, issued by the authority
# The authority (ca.pem) is in no system store: a test makes "good" verify
# by naming it in SSL_CERT_FILE, which OpenSSL's default paths honour.
# Only openssl's own configuration here is used, not the system's, so that
# the certificates are the same on every machine.  Quiet on success; on a
# failure, openssl's messages and exit status 1.
# usage: certs.sh OUTDIR
set -eu
[ $# -eq 1 ] || { echo "usage: certs.sh OUTDIR" >&2; exit 2; }
out=$1
mkdir -p "$out/ca.db"
log=$out/certs.log
: >"$log"
: >"$out/ca.db/index.txt"
echo 1000 >"$out/ca.db/serial"

# The dates of the expired certificate are written out (openssl ca
# -startdate/-enddate) because OpenSSL 3.0's req and x509 take only a
# number of days from now, and no faked clock is needed.
cat >"$out/openssl.cnf" <<CNF
[req]
distinguished_name = req_dn
prompt = no
[req_dn]
CN = unused
[ca]
default_ca = test_ca
[test_ca]
dir = $out/ca.db
database = \$dir/index.txt
serial = \$dir/serial
new_certs_dir = \$dir
certificate = $out/ca.pem
private_key = $out/ca.key
default_md = sha256
policy = any
unique_subject = no
copy_extensions = none
[any]
organizationName = optional
commonName = supplied
[authority]
basicConstraints = critical, CA:true
keyUsage = critical, keyCertSign, cRLSign
subjectKeyIdentifier = hash
[localhost]
basicConstraints = CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:localhost, IP:127.0.0.1, IP:::1
[other]
basicConstraints = CA:false
keyUsage = critical, digitalSignature
extendedKeyUsage = serverAuth
subjectAltName = DNS:other.example
CNF
OPENSSL_CONF=$out/openssl.cnf
export OPENSSL_CONF

run() {
	if ! "$@" >>"$log" 2>&1; then
		cat "$log" >&2
		echo "certs.sh: failed: $*" >&2
		exit 1
	fi
}

# key NAME: a P-256 key (fast to make, and what many servers use).
key() {
	run openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 \
		-out "$out/$1.key"
}

# issue NAME CN SECTION DATES...: a certificate from the authority.
issue() {
	name=$1 cn=$2 section=$3
	shift 3
	key "$name"
	run openssl req -new -key "$out/$name.key" -subj "/O=smtpcode test/CN=$cn" \
		-out "$out/$name.csr"
	run openssl ca -batch -notext -config "$out/openssl.cnf" \
		-extfile "$out/openssl.cnf" -extensions "$section" \
		-in "$out/$name.csr" -out "$out/$name.pem" "$@"
	rm -f "$out/$name.csr"
}

key ca
run openssl req -x509 -new -key "$out/ca.key" -subj "/O=smtpcode test/CN=smtpcode test CA" \
	-days 3650 -extensions authority -out "$out/ca.pem"
issue good localhost localhost -days 825
issue expired localhost localhost -startdate 20200101000000Z -enddate 20200201000000Z
issue other other.example other -days 825
key self
run openssl req -x509 -new -key "$out/self.key" -subj "/O=smtpcode test/CN=localhost" \
	-days 825 -extensions localhost -out "$out/self.pem"
rm -rf "$log" "$out/ca.db" "$out/openssl.cnf"
