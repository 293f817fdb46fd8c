// The package check of scripts/desktop (main/desktop/packages.ts with the test desktop's list): what is missing is found, installation is non-interactive and a failure
// names the exact apt command. apt itself is replaced by a stand-in script: no package is installed here.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { projectRoot } from '../support/paths.js';

interface PackagesModule {
  DESKTOP_PACKAGES: readonly string[];
  missingPackages(packages?: readonly string[]): string[];
  aptCommand(packages: string[]): string;
  ensureDesktopPackages(options?: {
    packages?: readonly string[];
    log?: (m: string) => void;
    aptGet?: string;
    debianLike?: boolean;
    root?: boolean;
  }): string[];
}

const load = async () =>
  (await import(pathToFileURL(path.join(projectRoot(), 'scripts/desktop/packages.mjs')).href)) as PackagesModule;

const FAKE = 'platynui-no-such-package';

test('all desktop packages are installed on this machine and a missing one is reported', async () => {
  const m = await load();
  assert.ok(m.DESKTOP_PACKAGES.includes('xvfb') && m.DESKTOP_PACKAGES.includes('python3-dogtail'));
  assert.ok(m.DESKTOP_PACKAGES.includes('xauth'), 'the virtual desktop writes its cookie with xauth');
  assert.deepEqual(m.missingPackages(), []);
  assert.deepEqual(m.missingPackages(['xvfb', FAKE]), [FAKE]);
  assert.deepEqual(m.ensureDesktopPackages({ log: () => {} }), []);
});

test('missing packages are installed non-interactively with apt-get, and a failure names the command', async () => {
  const m = await load();
  const dir = mkdtempSync(path.join(tmpdir(), 'platynui-apt-'));
  try {
    const calls = path.join(dir, 'calls');
    const apt = path.join(dir, 'apt-get');
    // "update" works, "install" fails: the installer must refresh the lists once and retry, then give up clearly.
    writeFileSync(
      apt,
      `#!/bin/sh\necho "DEBIAN_FRONTEND=$DEBIAN_FRONTEND $*" >> '${calls}'\ncase "$*" in *update) exit 0;; esac\nexit 100\n`,
    );
    chmodSync(apt, 0o755);
    const logs: string[] = [];
    assert.throws(
      () => m.ensureDesktopPackages({ packages: ['xvfb', FAKE], aptGet: apt, root: true, log: (l) => logs.push(l) }),
      (err: Error) => {
        assert.match(err.message, new RegExp(`apt-get install -y --no-install-recommends ${FAKE}`));
        return true;
      },
    );
    const lines = readFileSync(calls, 'utf8').trim().split('\n');
    // install, then (after the failure) update and install again; never the packages already there
    assert.equal(lines.length, 3, lines.join('\n'));
    assert.match(
      lines[0] ?? '',
      new RegExp(`^DEBIAN_FRONTEND=noninteractive .*install -y --no-install-recommends ${FAKE}$`),
    );
    assert.match(lines[1] ?? '', /update$/);
    assert.match(lines[2] ?? '', new RegExp(`install -y --no-install-recommends ${FAKE}$`));
    assert.ok(logs.some((l) => l.includes(FAKE)));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('without root, or off Debian, nothing is run and the message gives the apt command', async () => {
  const m = await load();
  assert.throws(
    () => m.ensureDesktopPackages({ packages: [FAKE], root: false, aptGet: '/nonexistent/apt-get' }),
    /Missing Debian packages for the test desktop: platynui-no-such-package\.\nInstall them with: .*apt-get install -y --no-install-recommends platynui-no-such-package/,
  );
  assert.throws(
    () => m.ensureDesktopPackages({ packages: ['xvfb'], debianLike: false }),
    /needs a Debian\/Ubuntu machine.*\n.*apt-get install -y --no-install-recommends xvfb/,
  );
  assert.match(
    m.aptCommand(['a', 'b']),
    /DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends a b$/,
  );
});
