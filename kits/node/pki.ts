// The X.509 work of a TLS host (issue 26, `pane host pair`): a per-user CA, the
// server certificate it signs (its names and IPs as subjectAltName), a client's key
// and certificate request made where the client runs (only the request travels),
// the CA's signature on it, and a certificate's SHA-256 fingerprint. Keys come from
// Node's crypto (OpenSSL); certificates and requests from node-forge (decision 036).
// Nothing else in pane builds or parses a certificate.
import crypto from 'node:crypto';
import net from 'node:net';
import forge from 'node-forge';

/** RSA modulus of every key made here: 2048 bits is what node-forge signs with and TLS 1.3 peers accept everywhere. */
export const PKI_KEY_BITS = 2048;
/** How long the per-user CA is valid: ten years; it is replaced by pairing again, not by expiry. */
export const CA_VALID_DAYS = 3650;
/** How long a server or client certificate is valid: two years; `pane host pair NAME` issues fresh ones. */
export const LEAF_VALID_DAYS = 730;
/** Names a server certificate may carry (host names and IPs it is reached by). */
export const MAX_CERT_NAMES = 16;

export interface KeyCert {
  certPem: string;
  keyPem: string;
}

const DAY_MS = 86_400_000;

/** A fresh RSA key, PEM (PKCS#1), made by Node's crypto. */
export function newKeyPem(): string {
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: PKI_KEY_BITS });
  return privateKey.export({ type: 'pkcs1', format: 'pem' }).toString();
}

/**
 * A random positive serial, 16 octets, DER-minimal by construction: the first octet
 * is forced into 0x40..0x7f, so it is never 0x00 (a needless leading zero, which
 * OpenSSL refuses as "illegal padding") and never has its top bit set (which would
 * read as negative and need a 0x00 before it). node-forge writes the hex as given
 * and strips at most one leading zero, so an unshaped serial (as "00" + 16 random
 * octets was) came out non-minimal whenever its first random octet was 0x00 and
 * the next below 0x80, and that certificate did not parse. 126 random bits remain.
 */
export function serial(): string {
  const b = crypto.randomBytes(16);
  b[0] = (b[0]! & 0x3f) | 0x40;
  return b.toString('hex');
}

function publicOf(key: forge.pki.rsa.PrivateKey): forge.pki.rsa.PublicKey {
  return forge.pki.setRsaPublicKey(key.n, key.e);
}

function leaf(subjectCn: string, pub: forge.pki.PublicKey, ca: KeyCert, days: number, ext: object[]): string {
  const caCert = forge.pki.certificateFromPem(ca.certPem);
  const caKey = forge.pki.privateKeyFromPem(ca.keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = pub;
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 5 * 60_000);
  cert.validity.notAfter = new Date(Date.now() + days * DAY_MS);
  cert.setSubject([{ name: 'commonName', value: subjectCn }]);
  cert.setIssuer(caCert.subject.attributes);
  cert.setExtensions([{ name: 'basicConstraints', cA: false }, { name: 'keyUsage', digitalSignature: true, keyEncipherment: true }, ...ext]);
  cert.sign(caKey, forge.md.sha256.create());
  return forge.pki.certificateToPem(cert);
}

/** A self-signed CA for one user on one machine: it signs that daemon's server certificate and its paired clients. */
export function makeCa(cn: string): KeyCert {
  const keyPem = newKeyPem();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const cert = forge.pki.createCertificate();
  cert.publicKey = publicOf(key);
  cert.serialNumber = serial();
  cert.validity.notBefore = new Date(Date.now() - 5 * 60_000);
  cert.validity.notAfter = new Date(Date.now() + CA_VALID_DAYS * DAY_MS);
  const subject = [{ name: 'commonName', value: cn }];
  cert.setSubject(subject);
  cert.setIssuer(subject);
  cert.setExtensions([
    { name: 'basicConstraints', cA: true, pathLenConstraint: 0 },
    { name: 'keyUsage', keyCertSign: true, cRLSign: true, digitalSignature: true },
    { name: 'subjectKeyIdentifier' },
  ]);
  cert.sign(key, forge.md.sha256.create());
  return { certPem: forge.pki.certificateToPem(cert), keyPem };
}

/** A server certificate signed by `ca` for `names` (host names and IP addresses, as subjectAltName). */
export function issueServerCert(ca: KeyCert, names: readonly string[]): KeyCert {
  if (names.length === 0 || names.length > MAX_CERT_NAMES) throw new Error(`a server certificate names 1 to ${MAX_CERT_NAMES} hosts (MAX_CERT_NAMES); given ${names.length}`);
  const keyPem = newKeyPem();
  const altNames = names.map((n) => (net.isIP(n) ? { type: 7, ip: n } : { type: 2, value: n }));
  const certPem = leaf(names[0]!, publicOf(forge.pki.privateKeyFromPem(keyPem)), ca, LEAF_VALID_DAYS, [{ name: 'extKeyUsage', serverAuth: true }, { name: 'subjectAltName', altNames }]);
  return { certPem, keyPem };
}

/** The names (DNS and IP) a certificate's subjectAltName carries. */
export function certNames(certPem: string): string[] {
  const ext = forge.pki.certificateFromPem(certPem).getExtension('subjectAltName') as { altNames?: { type: number; value?: string; ip?: string }[] } | undefined;
  return (ext?.altNames ?? []).map((a) => (a.type === 7 ? (a.ip ?? '') : (a.value ?? ''))).filter(Boolean);
}

/** A client key and a request for a certificate naming `cn`, made here: the key never leaves this machine. */
export function makeCsr(cn: string): { csrPem: string; keyPem: string } {
  const keyPem = newKeyPem();
  const key = forge.pki.privateKeyFromPem(keyPem);
  const csr = forge.pki.createCertificationRequest();
  csr.publicKey = publicOf(key);
  csr.setSubject([{ name: 'commonName', value: cn }]);
  csr.sign(key, forge.md.sha256.create());
  return { csrPem: forge.pki.certificationRequestToPem(csr), keyPem };
}

/** Longest common name a client's request may carry (X.509's ub-common-name). */
const MAX_CN = 64;

/**
 * Signs a client's certificate request with `ca`: the request's own signature must
 * verify (its sender holds the key), and only its public key and a bounded common
 * name are taken; the certificate says clientAuth only.
 */
export function signClientCsr(ca: KeyCert, csrPem: string): { certPem: string; cn: string } {
  let csr: forge.pki.CertificateSigningRequest;
  try {
    csr = forge.pki.certificationRequestFromPem(csrPem);
  } catch (e) {
    throw new Error(`the certificate request does not read (${(e as Error).message}); run pane host pair again`);
  }
  let verified = false;
  try {
    verified = csr.verify();
  } catch {
    // node-forge throws ("Encryption block is invalid") for a signature by another key.
  }
  if (!verified) throw new Error('the certificate request is not signed by its own key; run pane host pair again');
  const cnAttr = csr.subject.getField('CN') as { value?: string } | null;
  const cn = String(cnAttr?.value ?? 'pane client').slice(0, MAX_CN);
  if (!csr.publicKey) throw new Error('the certificate request carries no public key');
  return { certPem: leaf(cn, csr.publicKey, ca, LEAF_VALID_DAYS, [{ name: 'extKeyUsage', clientAuth: true }]), cn };
}

/** SHA-256 of the certificate's DER, as colon-separated upper-case hex (as `openssl x509 -fingerprint -sha256` prints it). */
export function fingerprint(certPem: string): string {
  return new crypto.X509Certificate(certPem).fingerprint256;
}
