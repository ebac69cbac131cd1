// The Debian packages the test suites use (real browser, tmux for the benchmark
// anchor, FUSE for the namespace, Xvfb + xdotool for real key events in a real
// window, the Noto emoji/CJK fonts the page falls back to, the packaging tools
// for the .deb test, zsh and fish for the shell integration). Installed when missing and we are root;
// otherwise the suites that need them skip and say why.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';

const NEEDS = [
  { pkg: 'chromium', present: () => fs.existsSync('/usr/bin/chromium') },
  { pkg: 'tmux', present: () => spawnSync('tmux', ['-V']).status === 0 },
  { pkg: 'fuse3', present: () => fs.existsSync('/usr/bin/fusermount3') || fs.existsSync('/bin/fusermount3') },
  { pkg: 'xvfb', present: () => spawnSync('Xvfb', ['-help']).error === undefined },
  { pkg: 'xdotool', present: () => spawnSync('xdotool', ['version']).error === undefined },
  { pkg: 'fonts-noto-color-emoji', present: () => fs.existsSync('/usr/share/fonts/truetype/noto/NotoColorEmoji.ttf') },
  { pkg: 'fonts-noto-cjk', present: () => fs.existsSync('/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc') },
  // The .deb test: the icon's PNG sizes (rsvg-convert), the package checks, a display for the window.
  { pkg: 'librsvg2-bin', present: () => spawnSync('rsvg-convert', ['--version']).status === 0 },
  { pkg: 'dpkg-dev', present: () => spawnSync('dpkg-shlibdeps', ['--version']).status === 0 },
  { pkg: 'lintian', present: () => fs.existsSync('/usr/bin/lintian') },
  { pkg: 'desktop-file-utils', present: () => fs.existsSync('/usr/bin/desktop-file-validate') },
  // pane's shell integration is tested with the real shells it integrates (test/server/shellIntegration.test.ts).
  { pkg: 'zsh', present: () => spawnSync('zsh', ['-c', 'exit 0']).status === 0 },
  { pkg: 'fish', present: () => spawnSync('fish', ['-c', 'exit 0']).status === 0 },
  { pkg: 'libfuse2', present: () => ['/usr/lib/x86_64-linux-gnu/libfuse.so.2', '/lib/x86_64-linux-gnu/libfuse.so.2', '/usr/lib/aarch64-linux-gnu/libfuse.so.2'].some((p) => fs.existsSync(p)) },
  // Agent sandboxes (@anthropic-ai/sandbox-runtime): bubblewrap walls, socat bridges the network proxy in (its ripgrep scan
  // is of an empty directory, answered by `false`: decision 049).
  { pkg: 'bubblewrap', present: () => spawnSync('bwrap', ['--version']).status === 0 },
  { pkg: 'socat', present: () => spawnSync('socat', ['-V']).status === 0 },
  // A real program printing sixel into a pane (test/e2e/images.test.ts): img2sixel.
  { pkg: 'libsixel-bin', present: () => fs.existsSync('/usr/bin/img2sixel') },
  // Remote hosts (issue 26) are tested through a real sshd the test starts on 127.0.0.1 with its own keys.
  { pkg: 'openssh-server', present: () => fs.existsSync('/usr/sbin/sshd') },
  { pkg: 'openssh-client', present: () => spawnSync('ssh', ['-V']).status === 0 && spawnSync('ssh-keygen', ['-l', '-f', '/dev/null']).error === undefined },
  // Plumbing opens a clicked file:line in an editor pane: vim is the editor the window test drives (test/e2e/plumb.test.ts).
  { pkg: 'vim', present: () => fs.existsSync('/usr/bin/vim') },
  // A TLS door's peer vanishing is played on a veth link into a network namespace (test/security/tlsVanished.test.ts).
  { pkg: 'iproute2', present: () => spawnSync('ip', ['-V']).status === 0 },
  // `pane service install`'s unit is checked by systemd's own parser (systemd-analyze verify).
  { pkg: 'systemd', present: () => spawnSync('systemd-analyze', ['--version']).status === 0 },
  // `pane metrics` is scraped by a real Prometheus server the test starts on 127.0.0.1, and its text checked by promtool.
  // The hosts bench's C PTY relay (bench/c/ptyRelay.c: what Node costs a hop), built by its test as the bench builds it.
  { pkg: 'gcc', present: () => spawnSync('cc', ['--version']).status === 0 },
  { pkg: 'libc6-dev', present: () => fs.existsSync('/usr/include/pty.h') },
  { pkg: 'prometheus', present: () => spawnSync('prometheus', ['--version']).status === 0 && spawnSync('promtool', ['--version']).status === 0 },
];

export function ensureSystemDeps({ quiet = false } = {}) {
  const missing = NEEDS.filter((n) => !n.present()).map((n) => n.pkg);
  if (missing.length === 0) return [];
  const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
  const hasApt = spawnSync('apt-get', ['--version']).status === 0;
  if (!isRoot || !hasApt || process.env.PANE_NO_APT === '1') {
    if (!quiet) console.warn(`pane tests: missing Debian packages ${missing.join(', ')}; suites that need them will skip (install with: sudo apt-get install -y ${missing.join(' ')})`);
    return missing;
  }
  console.log(`pane tests: installing ${missing.join(', ')} with apt-get`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  // Wait for another apt run to finish rather than failing on its lock.
  const lock = ['-o', 'DPkg::Lock::Timeout=300'];
  try {
    execFileSync('apt-get', [...lock, 'update'], { stdio: 'inherit', env });
    execFileSync('apt-get', [...lock, 'install', '-y', '--no-install-recommends', ...missing], { stdio: 'inherit', env });
  } catch (e) {
    console.warn(`pane tests: apt-get could not install ${missing.join(', ')} (${e.message.split('\n')[0]}); suites that need them will skip`);
  }
  const still = NEEDS.filter((n) => !n.present()).map((n) => n.pkg);
  if (still.length && !quiet) console.warn(`pane tests: still missing ${still.join(', ')}`);
  return still;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureSystemDeps();
