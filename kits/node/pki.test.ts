// pki.ts: the certificates pairing makes verify with Node's own X.509 (issuer, names,
// key usage), a request signed by another key than the one it carries is refused,
// and tlsFiles refuses a key file open to others or a link.
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import forge from 'node-forge';
import { describe, expect, it } from 'vitest';
import { certNames, fingerprint, issueServerCert, makeCa, makeCsr, serial, signClientCsr } from './pki';
import { ensureCa } from './tlsCerts';
import { readKeyFile } from './tlsFiles';

describe('pki', () => {
  const ca = makeCa('test CA');
  it('issues a server certificate for names and IPs, and a client certificate from a request, both signed by the CA', () => {
    const server = issueServerCert(ca, ['127.0.0.1', 'box.example']);
    const x = new crypto.X509Certificate(server.certPem);
    expect(x.checkIssued(new crypto.X509Certificate(ca.certPem))).toBe(true);
    expect(x.checkIP('127.0.0.1')).toBe('127.0.0.1');
    expect(x.checkHost('box.example')).toBe('box.example');
    expect(certNames(server.certPem)).toEqual(['127.0.0.1', 'box.example']);
    const { csrPem, keyPem } = makeCsr('ada@laptop');
    const { certPem, cn } = signClientCsr(ca, csrPem);
    expect(cn).toBe('ada@laptop');
    const c = new crypto.X509Certificate(certPem);
    expect(c.checkIssued(new crypto.X509Certificate(ca.certPem))).toBe(true);
    expect(c.checkPrivateKey(crypto.createPrivateKey(keyPem))).toBe(true);
    expect(c.keyUsage).toContain('1.3.6.1.5.5.7.3.2'); // clientAuth
    expect(fingerprint(certPem)).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
  });

  it('gives every certificate a DER-minimal positive serial, so OpenSSL reads each one it signs', () => {
    // "00" + 16 random octets came out non-minimal ("illegal padding") about once in
    // a few hundred: node-forge strips one leading zero, not two.
    // DER's rule for a positive INTEGER: no leading 0x00 octet, top bit of the first clear.
    let bad = 0;
    for (let i = 0; i < 20_000; i++) {
      const b = Buffer.from(serial(), 'hex');
      if (b.length !== 16 || b[0] === 0 || (b[0]! & 0x80) !== 0) bad++;
    }
    expect(bad).toBe(0);
    const { csrPem } = makeCsr('many');
    for (let i = 0; i < 20; i++) {
      const { certPem } = signClientCsr(ca, csrPem);
      const der = new crypto.X509Certificate(certPem).serialNumber;
      expect(der).toMatch(/^[4-7][0-9A-F]{31}$/);
    }
  });

  it('refuses a request whose signature is not by the key it carries (someone else’s public key)', () => {
    const mallory = forge.pki.privateKeyFromPem(makeCsr('mallory').keyPem);
    const victim = forge.pki.privateKeyFromPem(makeCsr('victim').keyPem);
    const csr = forge.pki.createCertificationRequest();
    csr.publicKey = forge.pki.setRsaPublicKey(victim.n, victim.e);
    csr.setSubject([{ name: 'commonName', value: 'victim' }]);
    csr.sign(mallory, forge.md.sha256.create());
    expect(() => signClientCsr(ca, forge.pki.certificationRequestToPem(csr))).toThrow(/not signed by its own key; run pane host pair again/);
  });
});

describe('tlsFiles', () => {
  it('keeps the CA key 0600 and refuses it when open to others or a link', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pane-pki-'));
    try {
      ensureCa(path.join(dir, 'tls'), 'x');
      const key = path.join(dir, 'tls', 'ca.key');
      expect(fs.statSync(key).mode & 0o777).toBe(0o600);
      expect(fs.statSync(path.join(dir, 'tls')).mode & 0o777).toBe(0o700);
      expect(readKeyFile(key)).toContain('PRIVATE KEY');
      fs.chmodSync(key, 0o640);
      expect(() => readKeyFile(key)).toThrow(/readable by others \(mode 640\); chmod 600/);
      fs.chmodSync(key, 0o600);
      fs.symlinkSync(key, path.join(dir, 'link.key'));
      expect(() => readKeyFile(path.join(dir, 'link.key'))).toThrow(/symbolic link is not read/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
